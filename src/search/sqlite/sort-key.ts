/**
 * Sort keys make FTS5 rowids follow the archive's default order (date descending, then id), so a
 * rowid-ordered scan returns pages in that order and stops after the page instead of sorting every
 * hit. A key is (LAST_DAY - day) · 2^24 + slot; slots within a day follow the ids' order, with gaps
 * so a new id usually fits between its neighbours without moving them.
 */

export const SLOTS_PER_DAY = 2 ** 24;
const LAST_DAY = 65535;
/** Distance between neighbours when appending at either end of a day. */
export const APPEND_STEP = 2 ** 16;

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}

/** The first key of a day. */
export function dayBase(day: number): number {
  return (LAST_DAY - day) * SLOTS_PER_DAY;
}

/**
 * A slot strictly between the neighbours' keys (either may be absent), or undefined when they
 * leave no room and the day must be renumbered.
 */
export function keyBetween(day: number, previous: number | undefined, next: number | undefined): number | undefined {
  const base = dayBase(day);
  if (previous === undefined && next === undefined) return base + SLOTS_PER_DAY / 2;
  if (next === undefined) {
    const candidate = (previous ?? base) + APPEND_STEP;
    if (candidate < base + SLOTS_PER_DAY) return candidate;
    return midpoint(previous ?? base, base + SLOTS_PER_DAY);
  }
  if (previous === undefined) {
    const candidate = next - APPEND_STEP;
    if (candidate >= base) return candidate;
    return midpoint(base - 1, next);
  }
  return midpoint(previous, next);
}

function midpoint(low: number, high: number): number | undefined {
  if (high - low < 2) return undefined;
  return low + Math.floor((high - low) / 2);
}

/** Evenly spread keys for n ids of one day, in id order. */
export function spreadKeys(day: number, count: number): number[] {
  const step = Math.floor(SLOTS_PER_DAY / (count + 1));
  return Array.from({ length: count }, (_, i) => dayBase(day) + (i + 1) * step);
}
