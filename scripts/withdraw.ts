/**
 * Takes works out of the archive on a takedown request (their ids then answer 410 with the reason):
 *   npm run withdraw -- ID [ID …] --reason "why" [--only] [--follow-moves]
 * Each named record is withdrawn with every other record of the same work (its gallery and
 * timeline records, found by work key) unless --only. An id that moved is reported with the id
 * holding its work now, and that record is withdrawn only with --follow-moves. Prints every id
 * withdrawn and every named id that was not (unknown, already withdrawn, moved); exits 1 when a
 * named id was unknown or moved without --follow-moves, after withdrawing the others.
 * Then the withdrawn records' preview and thumbnail files are removed from the media folder
 * (ARCHIVE_DATA_DIR/media), except those another record still references.
 */
import { parseArgs } from 'node:util';
import type { Backend } from '../src/backend.ts';
import type { Config } from '../src/config.ts';
import { runCommand } from './command.ts';
import { referencedMedia, withdrawRecords } from '../src/domain/withdrawal.ts';
import type { WithdrawalReport } from '../src/domain/withdrawal.ts';
import { removeMediaFiles } from '../src/media/media-files.ts';

const USAGE = 'usage: npm run withdraw -- ID [ID …] --reason "why" [--only] [--follow-moves]';

/** The report, one line per id, in the order: withdrawn, timeline successors, then the ids that were not withdrawn. */
export function describeReport(report: WithdrawalReport, reason: string): string[] {
  const lines = [report.withdrawn.length ? `withdrew ${report.withdrawn.length} record${report.withdrawn.length === 1 ? '' : 's'} (reason: ${reason}):` : 'withdrew nothing'];
  for (const record of report.withdrawn) {
    const via = record.namedAs === record.id ? '' : ` (for ${record.namedAs})`;
    lines.push(`  ${record.id}  ${record.kind}  ${record.model}  ${record.sourceUrl}${via}`);
  }
  for (const successor of report.timelineSuccessors) lines.push(`timeline of ${successor.model} now starts with ${successor.id}`);
  for (const entry of report.alreadyWithdrawn) lines.push(`already withdrawn: ${entry.id} (on ${entry.at.slice(0, 10)}: ${entry.reason})`);
  for (const entry of report.moved) {
    lines.push(entry.followed ? `moved: ${entry.id} → ${entry.currentId} (withdrawn above)` : `moved: ${entry.id} → ${entry.currentId}; not withdrawn (withdraw ${entry.currentId}, or pass --follow-moves)`);
  }
  for (const id of report.unknown) lines.push(`unknown: ${id} (never published)`);
  return lines;
}

/** Removes the withdrawn records' media files no remaining record references; returns the line that says what it did. */
async function removeUnreferencedMedia(backend: Backend, mediaDir: string, report: WithdrawalReport): Promise<string | undefined> {
  const candidates = [...new Set(report.withdrawn.flatMap((record) => record.media))];
  if (candidates.length === 0) return undefined;
  const started = performance.now();
  const { referenced, recordsRead } = await referencedMedia(backend.store, candidates);
  const removed = await removeMediaFiles(mediaDir, candidates.filter((path) => !referenced.has(path)));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return `media: removed ${removed.length} file${removed.length === 1 ? '' : 's'}, kept ${referenced.size} another record references (read ${recordsRead} records in ${seconds} s)`;
}

async function main(backend: Backend, config: Config): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { reason: { type: 'string' }, only: { type: 'boolean' }, 'follow-moves': { type: 'boolean' } },
  });
  const reason = values.reason ?? '';
  const result = await withdrawRecords(backend.store, { ids: positionals, reason, wholeWork: !values.only, followMoves: values['follow-moves'] ?? false });
  if (result.kind === 'invalid') throw new Error(`${result.message}\n${USAGE}`);
  const { report } = result;
  for (const line of describeReport(report, reason.trim())) console.log(line);
  const media = await removeUnreferencedMedia(backend, config.mediaDir, report);
  if (media) console.log(media);
  if (report.unknown.length || report.moved.some((entry) => !entry.followed)) process.exitCode = 1;
}

runCommand(main);
