/**
 * Cursors of list walks. A cursor is opaque to clients: base64url of a few packed bytes holding
 * the position after the last record returned (the sort values of that record, see
 * SearchPosition), how many records the walk has returned so far, and a fingerprint of the query
 * it belongs to, so a cursor is never applied to another query by mistake; the bytes end in a
 * check value, so a cursor damaged or edited on its way back is refused instead of read.
 *
 * The bytes (form 3): the form, the fingerprint's first 6 bytes, the records returned, the date's
 * year, month and day, the id's length and ASCII, then the rank and the frozen values, each a
 * count and its numbers, and last the CRC-32 of every byte before it (4 bytes, little-endian as
 * the CRC is computed, so the bytes and their check form one codeword).
 * Counts and whole numbers are unsigned LEB128 varints; a number is written as twice its value
 * when it is a whole number below 2^31, otherwise as 1 and its 8 bytes of IEEE 754 double, so
 * every value comes back exactly. A one-word relevance cursor takes about 110 characters, a
 * date-order cursor about 60 (form 2, without the check value and with 8 bytes of fingerprint,
 * took 2-3 fewer).
 *
 * The check value is not keyed: it catches any cursor changed by mistake or by hand (a CRC-32
 * catches every change within 4 consecutive bytes, so every changed character, and any other
 * change but for 1 chance in 2^32), not one forged by someone who recomputes it. Cursors of the
 * earlier forms (1: base64url JSON; 2: packed without a check value) are no longer read: they
 * would let an edited cursor through. See docs/search.md#paging.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { SearchFilters, SearchOrder, SearchPosition } from './search-query.ts';
import type { Lang } from './record.ts';

const CHECKED_FORM = 3;
const FINGERPRINT_BYTES = 6;
const CHECK_BYTES = 4;
const MAX_NUMBERS = 64;

/** What a cursor carries. */
export interface CursorState {
  position: SearchPosition;
  /** Records the walk returned before the next page: the next page's `offset`. */
  returned: number;
}

/** The parts of a query a cursor is bound to (paging and facets may change between pages). */
export interface CursorQuery {
  scope: string;
  lang: Lang;
  text: string | undefined;
  filters: SearchFilters;
  order: SearchOrder;
}

/** A short fingerprint of a query (11 base64url characters); two queries that ask the same thing have the same one. */
export function queryFingerprint(query: CursorQuery): string {
  const filters = Object.entries(query.filters)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => [name, Array.isArray(value) ? [...(value as string[])].sort() : value])
    .sort(([a], [b]) => (String(a) < String(b) ? -1 : 1));
  const canonical = JSON.stringify([query.scope, query.lang, query.text ?? '', filters, query.order]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 11);
}

/** Appends the bytes of a cursor. */
class CursorWriter {
  private readonly bytes: number[] = [];

  varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.bytes.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.bytes.push(rest);
  }

  raw(bytes: Uint8Array): void {
    for (const byte of bytes) this.bytes.push(byte);
  }

  numbers(values: readonly number[]): void {
    this.varint(values.length);
    for (const value of values) {
      if (Number.isInteger(value) && value >= 0 && value < 2 ** 31 && !Object.is(value, -0)) {
        this.varint(value * 2);
      } else {
        this.varint(1);
        const double = Buffer.alloc(8);
        double.writeDoubleBE(value);
        this.raw(double);
      }
    }
  }

  /** The bytes written, followed by their check value, as base64url. */
  toString(): string {
    return sealCursor(Buffer.from(this.bytes));
  }
}

/** Reads the bytes of a cursor; every read past the end or out of range throws. */
class CursorReader {
  private at = 0;

  constructor(private readonly bytes: Buffer) {}

  varint(): number {
    let value = 0;
    for (let shift = 0; shift < 53; shift += 7) {
      const byte = this.byte();
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) {
        if (!Number.isSafeInteger(value)) break;
        return value;
      }
    }
    throw new RangeError('varint too long');
  }

  byte(): number {
    const byte = this.bytes[this.at];
    if (byte === undefined) throw new RangeError('cursor ends early');
    this.at += 1;
    return byte;
  }

  raw(length: number): Buffer {
    if (this.at + length > this.bytes.length) throw new RangeError('cursor ends early');
    const bytes = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return bytes;
  }

  numbers(): number[] {
    const count = this.varint();
    if (count > MAX_NUMBERS) throw new RangeError('too many numbers');
    const values: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const head = this.varint();
      if (head === 1) {
        const value = this.raw(8).readDoubleBE(0);
        if (!Number.isFinite(value)) throw new RangeError('not a finite number');
        values.push(value);
      } else if (head % 2 === 0) {
        values.push(head / 2);
      } else {
        throw new RangeError('unknown number form');
      }
    }
    return values;
  }

  get done(): boolean {
    return this.at === this.bytes.length;
  }
}

/** The cursor of a walk at this state, for this query's fingerprint. */
export function encodeCursor(fingerprint: string, state: CursorState): string {
  const { date, id, rank, frozen } = state.position;
  if (!DATE.test(date) || !ID.test(id)) throw new RangeError(`no cursor for the position ${date} ${id}`);
  const writer = new CursorWriter();
  writer.varint(CHECKED_FORM);
  writer.raw(Buffer.from(fingerprint, 'base64url').subarray(0, FINGERPRINT_BYTES));
  writer.varint(state.returned);
  for (const part of date.split('-')) writer.varint(Number(part));
  writer.varint(id.length);
  writer.raw(Buffer.from(id, 'ascii'));
  writer.numbers(rank ?? []);
  writer.numbers(frozen ?? []);
  return writer.toString();
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[a-z0-9][a-z0-9-]{0,127}$/;

/** The check value of a cursor's bytes: their CRC-32, little-endian. */
function checkValue(body: Buffer): Buffer {
  const check = Buffer.alloc(CHECK_BYTES);
  check.writeUInt32LE(crc32(body));
  return check;
}

/** A cursor's text: its bytes followed by their check value, as base64url. */
export function sealCursor(body: Buffer): string {
  return Buffer.concat([body, checkValue(body)]).toString('base64url');
}

/**
 * The bytes a cursor carries, when it is written as sealCursor writes it (canonical base64url) and
 * its check value holds; undefined for anything else.
 */
export function openCursor(cursor: string): Buffer | undefined {
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length <= CHECK_BYTES || bytes.toString('base64url') !== cursor) return undefined;
  const body = bytes.subarray(0, bytes.length - CHECK_BYTES);
  return checkValue(body).equals(bytes.subarray(body.length)) ? body : undefined;
}

/** Why a cursor cannot be used. */
export type CursorProblem = 'malformed' | 'other-query';

/**
 * The state a cursor carries, or why it cannot be used with this query: 'malformed' when it is
 * not a cursor of the current form as this service writes it (its check value fails, or it does
 * not read), 'other-query' when it is intact but made for another query.
 */
export function decodeCursor(cursor: string, fingerprint: string): CursorState | CursorProblem {
  const body = openCursor(cursor);
  return body?.[0] === CHECKED_FORM ? decodeBody(body, fingerprint) : 'malformed';
}

function decodeBody(bytes: Buffer, fingerprint: string): CursorState | CursorProblem {
  let state: CursorState;
  let written: Buffer;
  try {
    const reader = new CursorReader(bytes);
    reader.varint();
    written = reader.raw(FINGERPRINT_BYTES);
    const returned = reader.varint();
    const date = `${String(reader.varint()).padStart(4, '0')}-${String(reader.varint()).padStart(2, '0')}-${String(reader.varint()).padStart(2, '0')}`;
    const id = reader.raw(reader.varint()).toString('latin1');
    const rank = reader.numbers();
    const frozen = reader.numbers();
    if (!reader.done || !DATE.test(date) || !ID.test(id)) return 'malformed';
    state = { returned, position: { date, id, ...(rank.length ? { rank } : {}), ...(frozen.length ? { frozen } : {}) } };
  } catch {
    return 'malformed';
  }
  return written.equals(Buffer.from(fingerprint, 'base64url').subarray(0, FINGERPRINT_BYTES)) ? state : 'other-query';
}
