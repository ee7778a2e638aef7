/**
 * The name a client most likely meant by one the service does not know: agents write the names
 * other search APIs use (query, max_results, language) or misspell ours (limt, formats), and one
 * suggestion corrects them faster than the list of every known name.
 */
import { damerauDistance } from '../search/edit-distance.ts';

/** Names other APIs use for ours, written as `comparable` makes them (lower case, no _ or -). */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['query', 'q'],
  ['search', 'q'],
  ['keywords', 'q'],
  ['maxresults', 'limit'],
  ['limitresults', 'limit'],
  ['pagesize', 'limit'],
  ['perpage', 'limit'],
  ['count', 'limit'],
  ['language', 'lang'],
  ['locale', 'lang'],
  ['sortby', 'sort'],
  ['orderby', 'sort'],
  ['order', 'sort'],
  ['skip', 'offset'],
]);

/** A name as compared: lower case, without _ and - (max_results, maxResults and max-results are one). */
function comparable(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** The edits a name of this many characters may be away from a known one: none for one or two (x is not q), one up to four, two from five. */
function editsAllowed(length: number): number {
  return length >= 5 ? 2 : length >= 3 ? 1 : 0;
}

/** Names longer than this are no one's misspelling of a parameter; they are not compared. */
const LONGEST_COMPARED = 40;

/**
 * The known name `unknown` most likely stands for: its alias (query → q) when the caller knows
 * that name, else the one known name nearest within a few edits (editsAllowed), case and _ or -
 * aside; undefined when there is none, or several as near.
 */
export function likelyName(unknown: string, known: readonly string[]): string | undefined {
  const asked = comparable(unknown);
  const alias = ALIASES.get(asked);
  if (alias !== undefined && known.includes(alias)) return alias;
  if (asked.length === 0 || asked.length > LONGEST_COMPARED) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  let tied = false;
  for (const name of known) {
    const candidate = comparable(name);
    const allowed = editsAllowed(Math.min(asked.length, candidate.length));
    const apart = damerauDistance(asked, candidate, allowed);
    if (apart > allowed) continue;
    if (apart < bestDistance) [best, bestDistance, tied] = [name, apart, false];
    else if (apart === bestDistance) tied = true;
  }
  return tied ? undefined : best;
}
