/**
 * Maintainer review of submissions in needs_review, from the shell (the same commands as
 * POST /api/v1/ingest/{id}/review):
 *   npm run review -- list [--status needs_review] [--limit 20]
 *   npm run review -- show ID
 *   npm run review -- approve ID --note "why" [--by NAME] [--wait SECONDS]
 *   npm run review -- reject ID --note "why" [--by NAME]
 * The reviewer is --by, or shell:<user name>. An approval returns the submission to the queue;
 * the publisher of the running server (or `npm run indexer`) publishes it, and approve waits up
 * to --wait seconds (default 30) to print the outcome.
 */
import { userInfo } from 'node:os';
import type { StoreBackend } from '../src/backend.ts';
import { readSubcommand } from './arguments.ts';
import { readCommandLine, runStoreCommand, startCommandLine } from './command.ts';
import { listSubmissions } from '../src/domain/ingest/list.ts';
import { review } from '../src/domain/ingest/review.ts';
import { currentRecordIds } from '../src/domain/record-fates.ts';
import { FINAL_STATUSES, SUBMISSION_STATUSES } from '../src/domain/submission.ts';
import type { SubmissionRecord, SubmissionStatus } from '../src/domain/submission.ts';

const USAGE = 'usage: npm run review -- list [--status STATUS] [--limit N] | show ID | approve ID --note "why" [--by NAME] [--wait SECONDS] | reject ID --note "why" [--by NAME]';

startCommandLine(USAGE);

function describe(record: SubmissionRecord, recordIds: readonly string[]): string {
  const lines = [
    `${record.submissionId}  ${record.status}  by ${record.tokenName}  submitted ${record.submittedAt}  attempts ${record.attempts}`,
    `  ${record.submission.title.en} — ${record.submission.model}, ${record.submission.date}, ${record.submission.sourceUrl}`,
    ...record.checks.map((check) => `  ${check.name}: ${check.outcome}${check.override ? ` (overridden by ${check.override.by})` : ''} — ${check.detail}`),
    ...(record.reason ? [`  reason: ${record.reason}`] : []),
    ...(recordIds.length ? [`  records: ${recordIds.join(', ')}`] : []),
    ...(record.duplicateOf ? [`  duplicate of: ${record.duplicateOf}`] : []),
    ...record.reviews.map((decision) => `  ${decision.at} ${decision.decision} by ${decision.by}: ${decision.note}`),
  ];
  return lines.join('\n');
}

async function waitForOutcome(backend: StoreBackend, submissionId: string, seconds: number): Promise<SubmissionRecord | undefined> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const record = await backend.submissions.getSubmission(submissionId);
    if (record && FINAL_STATUSES.includes(record.status)) return record;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const { subcommand: command, operands, values } = readCommandLine((args) =>
  readSubcommand(
    {
      name: 'review',
      usage: USAGE,
      options: { note: { type: 'string' }, by: { type: 'string' }, wait: { type: 'string' }, status: { type: 'string' }, limit: { type: 'string' } },
      subcommands: {
        list: { options: ['status', 'limit'], operands: [0, 0] },
        show: { options: [], operands: [1, 1] },
        approve: { options: ['note', 'by', 'wait'], operands: [1, 1] },
        reject: { options: ['note', 'by'], operands: [1, 1] },
      },
    },
    args,
  ),
);

async function main(backend: StoreBackend): Promise<void> {
  const [id = ''] = operands;
  if (command === 'list') {
    const status = (values.status ?? 'needs_review') as SubmissionStatus;
    if (!SUBMISSION_STATUSES.includes(status)) throw new Error(`--status must be one of ${SUBMISSION_STATUSES.join(', ')}\n${USAGE}`);
    const limit = Number(values.limit ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new Error(`--limit must be 1 to 100\n${USAGE}`);
    const page = await listSubmissions(backend, { status, limit });
    if (page.kind !== 'page') throw new Error('unexpected cursor');
    if (page.items.length === 0) console.log(`no submissions in ${status}`);
    for (const record of page.items) console.log(`${describe(record, await currentRecordIds(backend.store, record.recordIds))}\n`);
    return;
  }
  if (command === 'show') {
    const record = await backend.submissions.getSubmission(id);
    if (!record) throw new Error(`no submission has the id ${id}`);
    console.log(describe(record, await currentRecordIds(backend.store, record.recordIds)));
    return;
  }
  if (command === 'approve' || command === 'reject') {
    // The audit trail names who decided: a blank --by would record no one.
    if (values.by !== undefined && values.by.trim() === '') throw new Error(`--by must name the reviewer (or leave it out for shell:${userInfo().username})\n${USAGE}`);
    const reviewer = values.by?.trim() ?? `shell:${userInfo().username}`;
    const seconds = values.wait?.trim() === '' ? Number.NaN : Number(values.wait ?? 30);
    if (command === 'approve' && (!Number.isFinite(seconds) || seconds < 0)) throw new Error(`--wait must be a number of seconds, 0 or more\n${USAGE}`);
    const result = await review(backend, { submissionId: id, decision: command, note: values.note ?? '', reviewer, now: new Date() });
    if (result.kind === 'invalid') throw new Error(`--note: ${result.message}\n${USAGE}`);
    if (result.kind === 'not-found') throw new Error(`no submission has the id ${id}`);
    if (result.kind === 'not-reviewable') throw new Error(`${id} is ${result.status}; only a submission in needs_review can be reviewed`);
    if (command === 'reject') {
      console.log(`rejected ${id} (by ${reviewer})`);
      return;
    }
    console.log(`approved ${id} (by ${reviewer}); queued for the publisher`);
    const outcome = seconds > 0 ? await waitForOutcome(backend, id, seconds) : undefined;
    if (!outcome) {
      console.log('not published yet: the publisher of the running server (npm start) or npm run indexer publishes it; follow it with npm run review -- show ' + id);
      return;
    }
    console.log(describe(outcome, await currentRecordIds(backend.store, outcome.recordIds)));
    if (outcome.status !== 'published') process.exitCode = 1;
    return;
  }
}

runStoreCommand(main);
