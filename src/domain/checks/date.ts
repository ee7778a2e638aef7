import type { CheckVerdict, Submission } from '../submission.ts';
import { isCalendarDate } from '../record.ts';
import { xStatusId } from '../sources.ts';

/** The archive holds nothing made before this date. */
export const EARLIEST_DATE = '2015-01-01';
const DAY_MS = 86_400_000;
/** X (Twitter) snowflake ids count milliseconds from this instant. */
const TWITTER_EPOCH_MS = 1288834974657;

/** The instant an x.com status id encodes (with a handle in the URL or without), or undefined when the URL is not an x.com status. */
export function snowflakeTime(canonicalUrl: string): number | undefined {
  const statusId = xStatusId(canonicalUrl);
  if (!statusId || !/^\d{15,20}$/.test(statusId)) return undefined;
  return Number(BigInt(statusId) >> 22n) + TWITTER_EPOCH_MS;
}

/**
 * Date: a real calendar date, not in the future (one day of slack for time zones), not before
 * 2015; where the source URL encodes a time (an x.com status id), within one day of it.
 */
export function checkDate(submission: Submission, canonicalUrl: string | undefined, now: Date): CheckVerdict {
  const fail = (detail: string): CheckVerdict => ({ name: 'date', outcome: 'fail', detail });
  const { date } = submission;
  if (!isCalendarDate(date)) return fail(`${date} is not a calendar date.`);
  const start = Date.parse(`${date}T00:00:00Z`);
  if (start > now.getTime() + DAY_MS) return fail(`${date} is in the future.`);
  if (date < EARLIEST_DATE) return fail(`${date} is before ${EARLIEST_DATE}; the archive holds works of modern models only.`);
  const encoded = canonicalUrl ? snowflakeTime(canonicalUrl) : undefined;
  if (encoded !== undefined) {
    const encodedDay = new Date(encoded).toISOString().slice(0, 10);
    const distance = Math.abs(start - Date.parse(`${encodedDay}T00:00:00Z`));
    if (distance > DAY_MS) return fail(`The post was published on ${encodedDay} (from its status id) but the date says ${date}; they must agree within one day.`);
    return { name: 'date', outcome: 'pass', detail: `${date} agrees with the post's own time (${encodedDay}).` };
  }
  return { name: 'date', outcome: 'pass', detail: `${date} is a plausible date.` };
}
