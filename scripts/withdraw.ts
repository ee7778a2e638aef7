/**
 * Takes works out of the archive on a takedown request (their ids then answer 410 with the reason):
 *   npm run withdraw -- ID [ID …] --reason "why" [--only] [--follow-moves]
 * Each named record is withdrawn with every other record of the same work (its gallery and
 * timeline records, found by work key) unless --only. An id that moved is reported with the id
 * holding its work now, and that record is withdrawn only with --follow-moves. Prints every id
 * withdrawn, the timeline record --only left at a withdrawn gallery record's source URL, if any,
 * the ids that had moved to a withdrawn record (they answer 410 now), and every named id that was
 * not withdrawn (unknown, already withdrawn, moved); exits 1 when a
 * named id was unknown or moved without --follow-moves, after withdrawing the others.
 * Then the withdrawn records' preview and thumbnail files are removed from the media folder
 * (ARCHIVE_DATA_DIR/media), except those another record still references. Their paths are kept
 * in ARCHIVE_DATA_DIR/withdrawn-media.json from before the withdrawal commits until they are
 * gone, so a run interrupted in between is finished by the next (the same command again will do).
 */
import type { StoreBackend } from '../src/backend.ts';
import type { Config } from '../src/config.ts';
import { readArguments } from './arguments.ts';
import { readCommandLine, runStoreCommand, startCommandLine } from './command.ts';
import { referencedMedia, withdrawRecords } from '../src/domain/withdrawal.ts';
import type { WithdrawalReport } from '../src/domain/withdrawal.ts';
import { removeMediaFiles } from '../src/media/media-files.ts';
import { WITHDRAWN_MEDIA_FILE, WithdrawnMediaList } from '../src/media/withdrawn-media.ts';

const USAGE = 'usage: npm run withdraw -- ID [ID …] --reason "why" [--only] [--follow-moves]';

startCommandLine(USAGE);

/** The report, one line per id, in the order: withdrawn, timeline successors and ends, timeline records --only left, moved ids that now answer 410, then the named ids that were not withdrawn. */
export function describeReport(report: WithdrawalReport, reason: string): string[] {
  const lines = [report.withdrawn.length ? `withdrew ${report.withdrawn.length} record${report.withdrawn.length === 1 ? '' : 's'} (reason: ${reason}):` : 'withdrew nothing'];
  for (const record of report.withdrawn) {
    const via = record.namedAs === record.id ? '' : ` (for ${record.namedAs})`;
    lines.push(`  ${record.id}  ${record.kind}  ${record.model}  ${record.sourceUrl}${via}`);
  }
  for (const successor of report.timelineSuccessors) lines.push(`timeline of ${successor.model} now starts with ${successor.id}`);
  for (const { model, withdrawn, worksLeft } of report.timelinesEnded) {
    if (!worksLeft) {
      lines.push(`timeline of ${model}: no record now (the model has no work left in the archive; its next work gets one when it is published)`);
      continue;
    }
    const why = withdrawn === 'editorial' ? 'the withdrawn timeline record was editorial, and an editorial one is not passed on' : 'its earliest remaining work is editorial, or is the work whose timeline record was withdrawn';
    lines.push(`timeline of ${model}: no record now (${why}; a new earliest work gets one when it is published)`);
  }
  for (const twin of report.timelineTwinsLeft) lines.push(`stays: ${twin.id}  timeline  ${twin.model}, the timeline record at the source URL of ${twin.galleryId} (--only withdrew the gallery record alone; withdraw it too, or the whole work without --only)`);
  for (const entry of report.movedIdsWithdrawn) lines.push(`moved id ${entry.id} now answers 410 (it moved to ${entry.movedTo}, withdrawn above)`);
  for (const entry of report.alreadyWithdrawn) lines.push(`already withdrawn: ${entry.id} (on ${entry.at.slice(0, 10)}: ${entry.reason})`);
  for (const entry of report.moved) {
    lines.push(entry.followed ? `moved: ${entry.id} → ${entry.currentId} (withdrawn above)` : `moved: ${entry.id} → ${entry.currentId}; not withdrawn (withdraw ${entry.currentId}, or pass --follow-moves)`);
  }
  for (const id of report.unknown) lines.push(`unknown: ${id} (never published)`);
  return lines;
}

/**
 * Removes the media files on the withdrawn-media list (this run's and any an interrupted run left)
 * that no remaining record references, then forgets the list; returns the line that says what it did.
 */
async function removeUnreferencedMedia(backend: StoreBackend, config: Config, list: WithdrawnMediaList): Promise<string | undefined> {
  const candidates = await list.read();
  if (candidates.length === 0) return undefined;
  const started = performance.now();
  const { referenced, recordsRead } = await referencedMedia(backend.store, candidates);
  const removed = await removeMediaFiles(config.mediaDir, candidates.filter((path) => !referenced.has(path)));
  await list.clear();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return `media: removed ${removed.length} file${removed.length === 1 ? '' : 's'}, kept ${referenced.size} another record references (read ${recordsRead} record${recordsRead === 1 ? '' : 's'} in ${seconds} s)`;
}

const OPTIONS = { reason: { type: 'string' }, only: { type: 'boolean' }, 'follow-moves': { type: 'boolean' } } as const;

// The ids themselves are checked by withdrawRecords, which also refuses none at all.
const { operands: ids, values } = readCommandLine((args) =>
  readArguments({ name: 'withdraw', usage: USAGE, options: OPTIONS, shape: { options: ['reason', 'only', 'follow-moves'], operands: [0, Infinity] } }, args),
);

async function main(backend: StoreBackend, config: Config): Promise<void> {
  const reason = values.reason ?? '';
  const list = new WithdrawnMediaList(config.dataDir);
  const left = (await list.read()).length;
  const result = await withdrawRecords(backend.store, { ids, reason, wholeWork: !values.only, followMoves: values['follow-moves'] ?? false }, async (media) => list.add(media));
  if (result.kind === 'invalid') throw new Error(`${result.message}\n${USAGE}`);
  const { report } = result;
  for (const line of describeReport(report, reason.trim())) console.log(line);
  // Candidates, not files to remove: a run stopped before its withdrawal committed listed files its records still reference.
  if (left > 0) console.log(`media: ${left} file${left === 1 ? '' : 's'} listed by an interrupted withdrawal, checked again now: removed unless a record references them (${WITHDRAWN_MEDIA_FILE})`);
  const media = await removeUnreferencedMedia(backend, config, list);
  if (media) console.log(media);
  if (report.unknown.length || report.moved.some((entry) => !entry.followed)) process.exitCode = 1;
}

runStoreCommand(main);
