/**
 * Sort keys make FTS5 rowids follow the archive's default order (date descending, then id), so a
 * rowid-ordered scan returns pages in that order and stops after the page instead of sorting every
 * hit. A key is (LAST_DAY - day) · 2^24 + slot; slots within a day follow the ids' order, with gaps
 * so a new id usually fits between its neighbours without moving them.
 */

import { dayNumber } from '../../domain/record.ts';

export const SLOTS_PER_DAY = 2 ** 24;
const LAST_DAY = 65535;
/** Distance between neighbours when appending at either end of a day. */
export const APPEND_STEP = 2 ** 16;

export { dayNumber } from '../../domain/record.ts';

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

/** The day of a key. */
export function dayOfKey(key: number): number {
  return LAST_DAY - Math.floor(key / SLOTS_PER_DAY);
}

/** The YYYY-MM-DD date of a key. */
export function dateOfKey(key: number): string {
  return new Date(dayOfKey(key) * 86_400_000).toISOString().slice(0, 10);
}

/** The keys of works dated from `from` to `to` (inclusive; either may be open). */
export function dateKeyRange(from: string | undefined, to: string | undefined): KeyRange {
  return {
    min: to === undefined ? -Infinity : dayBase(dayNumber(to)),
    max: from === undefined ? Infinity : dayBase(dayNumber(from)) + SLOTS_PER_DAY - 1,
  };
}

/** A range of sort keys, bounds included. */
export interface KeyRange {
  min: number;
  max: number;
}

/** Keys in both ranges. */
export function intersectRanges(a: KeyRange, b: KeyRange): KeyRange {
  return { min: Math.max(a.min, b.min), max: Math.min(a.max, b.max) };
}

/** Evenly spread keys for n ids of one day, in id order. */
export function spreadKeys(day: number, count: number): number[] {
  const step = Math.floor(SLOTS_PER_DAY / (count + 1));
  return Array.from({ length: count }, (_, i) => dayBase(day) + (i + 1) * step);
}
