/**
 * Reads a catalog file (one JSON object: `version`, `updated`, `total`, `records`) without holding
 * it: the file is read in chunks and each element of `records` is handed over as soon as its
 * closing brace is read, parsed on its own. A million-record catalog is about 800 MB, more than
 * one JavaScript string can hold, and parsing it whole would also need several times that in memory.
 * Any JSON layout works (records on one line or spread over many, fields in any order).
 */
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

const CHUNK_BYTES = 1 << 20;

const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
/** The characters a value is scanned by: quote, backslash, braces, brackets. */
const STOPS = ['"', '\\', '{', '}', '[', ']'];

export class CatalogSyntaxError extends Error {}

/** The catalog's top-level fields other than `records`, and how many records it held. */
export interface CatalogEnvelope {
  fields: Record<string, unknown>;
  records: number;
  /** Whether the file had a `records` array at all. */
  hasRecords: boolean;
}

/** Where the scanner is between values. */
type ScanState = 'start' | 'key' | 'colon' | 'value' | 'after-value' | 'records' | 'end';

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * Scans a catalog file, calling onRecord with each parsed element of `records` in file order (and
 * awaiting it when it returns a promise, so a slow consumer holds the reading back). Returns the
 * other top-level fields. Throws CatalogSyntaxError when the file is not one JSON object.
 * chunkBytes is the read size (tests make it tiny, so values straddle every chunk boundary).
 * onRecordsStart, when given, is called as `records` opens, with the fields read before it.
 */
export async function scanCatalogFile(
  path: string,
  onRecord: (record: unknown, index: number) => void | Promise<void>,
  chunkBytes = CHUNK_BYTES,
  onRecordsStart?: (fieldsBefore: Readonly<Record<string, unknown>>) => void,
): Promise<CatalogEnvelope> {
  const handle = await open(path, 'r');
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.allocUnsafe(chunkBytes);
  const fields: Record<string, unknown> = {};
  let hasRecords = false;
  let count = 0;
  // Where the scanner is between values: before the object, at a member's name, its colon, its value, after it, in `records`, or done.
  let state = 'start' as ScanState;
  let key = '';
  // The value being read (a member's name or value, or one record) and its text so far, across chunks.
  let collecting: 'name' | 'value' | undefined;
  let pending = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let inRecords = false;

  const parse = (text: string, what: string): unknown => {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new CatalogSyntaxError(`${what}: ${(error as Error).message}`);
    }
  };
  /** A whole name or value has been read; a record goes to onRecord (whose promise, if any, is returned). */
  const complete = (text: string): void | Promise<void> => {
    const what = collecting;
    collecting = undefined;
    pending = '';
    if (what === 'name') {
      key = parse(text, 'a field name') as string;
      state = 'colon';
      return;
    }
    if (!inRecords) {
      fields[key] = parse(text, key);
      state = 'after-value';
      return;
    }
    state = 'records';
    const index = count;
    count += 1;
    return onRecord(parse(text, `records[${index}]`), index);
  };
  const begin = (what: 'name' | 'value', code: number): void => {
    collecting = what;
    depth = code === OPEN_BRACE || code === OPEN_BRACKET ? 1 : 0;
    inString = code === QUOTE;
    escaped = false;
    pending = '';
  };

  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
      const text = bytesRead === 0 ? decoder.end() : decoder.write(buffer.subarray(0, bytesRead));
      const length = text.length;
      // The next position of each character the value scanner stops at (length when none is left in this chunk).
      const nextAt = [-1, -1, -1, -1, -1, -1];
      const next = (which: number, from: number): number => {
        const known = nextAt[which] as number;
        if (known >= from) return known;
        const found = text.indexOf(STOPS[which] as string, from);
        const position = found < 0 ? length : found;
        nextAt[which] = position;
        return position;
      };
      let start = 0;
      let i = 0;
      while (i < length) {
        if (collecting) {
          // Jump from one quote, backslash or bracket to the next: the text between them only needs keeping.
          let end = -1;
          if (inString) {
            if (escaped) {
              escaped = false;
              i += 1;
              continue;
            }
            const quote = next(0, i);
            const backslash = next(1, i);
            if (backslash < quote) {
              if (backslash === length - 1) escaped = true;
              i = backslash + 2;
              continue;
            }
            i = quote + 1;
            if (quote === length) break;
            inString = false;
            if (depth === 0) end = i;
          } else if (depth === 0) {
            // A number, true, false or null ends where the next delimiter begins.
            const code = text.charCodeAt(i);
            if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isSpace(code)) end = i;
            else i += 1;
          } else {
            const at = Math.min(next(0, i), next(2, i), next(3, i), next(4, i), next(5, i));
            if (at === length) {
              i = length;
              break;
            }
            const code = text.charCodeAt(at);
            i = at + 1;
            if (code === QUOTE) inString = true;
            else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth += 1;
            else if ((depth -= 1) === 0) end = i;
          }
          if (end >= 0) {
            const waiting = complete(pending + text.slice(start, end));
            if (waiting) await waiting;
          }
          continue;
        }
        const code = text.charCodeAt(i);
        i += 1;
        if (isSpace(code)) continue;
        // (a cast: TypeScript does not see that complete() changes the state)
        switch (state as ScanState) {
          case 'start':
            if (code !== OPEN_BRACE) throw new CatalogSyntaxError('a catalog file is one JSON object');
            state = 'key';
            break;
          case 'key':
            if (code === CLOSE_BRACE) state = 'end';
            else if (code === QUOTE) {
              begin('name', code);
              start = i - 1;
            } else throw new CatalogSyntaxError('expected a field name');
            break;
          case 'colon':
            if (code !== COLON) throw new CatalogSyntaxError(`expected ':' after "${key}"`);
            state = 'value';
            break;
          case 'value':
            if (key === 'records' && code === OPEN_BRACKET) {
              hasRecords = true;
              inRecords = true;
              state = 'records';
              onRecordsStart?.(fields);
            } else {
              begin('value', code);
              start = i - 1;
            }
            break;
          case 'records':
            if (code === CLOSE_BRACKET) {
              inRecords = false;
              state = 'after-value';
            } else if (code !== COMMA) {
              begin('value', code);
              start = i - 1;
            }
            break;
          case 'after-value':
            if (code === COMMA) state = 'key';
            else if (code === CLOSE_BRACE) state = 'end';
            else throw new CatalogSyntaxError(`expected ',' or '}' after "${key}"`);
            break;
          case 'end':
            throw new CatalogSyntaxError('text after the catalog object');
        }
      }
      if (collecting) pending += text.slice(start);
      if (bytesRead === 0) break;
    }
  } finally {
    await handle.close();
  }
  if ((state as ScanState) !== 'end' || collecting) throw new CatalogSyntaxError('the file ends before the catalog object does');
  return { fields, records: count, hasRecords };
}
