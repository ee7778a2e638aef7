import { crc32 } from 'node:zlib';
import { expect } from 'chai';
import { decodeCursor, encodeCursor, queryFingerprint } from '../../src/domain/cursor.ts';
import type { CursorState } from '../../src/domain/cursor.ts';

const fingerprint = queryFingerprint({ scope: 'specimens', lang: 'en', text: 'pelican', filters: { format: ['svg'] }, order: 'relevance' });
const otherFingerprint = queryFingerprint({ scope: 'specimens', lang: 'en', text: 'pelican', filters: {}, order: 'relevance' });

const states: CursorState[] = [
  { returned: 20, position: { date: '2026-05-02', id: 'animation-o3-5b6aae5f' } },
  { returned: 0, position: { date: '0999-01-09', id: 'a' } },
  { returned: 9_007_199_254_740_991, position: { date: '9999-12-31', id: `x${'-9'.repeat(63)}` } },
  { returned: 40, position: { date: '2026-05-02', id: 'game-o3-73309de0', rank: [1, 1, 1], frozen: [0, 1, 0, 0, 0.8797929917794567, 0.8797929917794567, 0.8797929917794567] } },
  { returned: 60, position: { date: '2025-01-01', id: 'svg-1', rank: [2, 0, 31.25, -4, -0, 2 ** 31, 2 ** 31 - 1, 1e-300, Number.MAX_VALUE, -Number.MIN_VALUE] } },
  { returned: 80, position: { date: '2025-01-01', id: 'svg-2', frozen: [0.1, 0.2] } },
];

/** Bytes as a cursor of the current form ends them: followed by their CRC-32, little-endian. */
function sealed(body: Buffer): string {
  const check = Buffer.alloc(4);
  check.writeUInt32LE(crc32(body));
  return Buffer.concat([body, check]).toString('base64url');
}

/** The cursor's bytes up to the date (form, fingerprint, records returned: 20). */
function headOf(cursor: string): Buffer {
  return Buffer.concat([Buffer.from(cursor, 'base64url').subarray(0, 7), Buffer.from([20])]);
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('list cursors', () => {
  it('give back exactly the state they were made from, every number bit for bit', () => {
    for (const state of states) {
      const decoded = decodeCursor(encodeCursor(fingerprint, state), fingerprint);
      expect(decoded).to.deep.equal(state);
      if (typeof decoded !== 'string') for (const [i, value] of (state.position.rank ?? []).entries()) expect(Object.is(decoded.position.rank?.[i], value), `rank ${i}`).to.equal(true);
    }
  });

  it('are short: a relevance cursor with seven frozen values is under 100 characters, URL-safe', () => {
    const cursor = encodeCursor(fingerprint, states[3] as CursorState);
    expect(cursor.length).to.be.below(100);
    expect(encodeCursor(fingerprint, states[0] as CursorState).length).to.be.below(60);
    expect(cursor).to.match(/^[A-Za-z0-9_-]+$/);
  });

  it('belong to one query: another query is told apart from a malformed cursor', () => {
    expect(decodeCursor(encodeCursor(fingerprint, states[0] as CursorState), otherFingerprint)).to.equal('other-query');
    expect(decodeCursor(encodeCursor(fingerprint, states[0] as CursorState), '')).to.equal('other-query');
  });

  it('refuse anything this service did not write: truncated, extended, altered or not base64url', () => {
    const cursor = encodeCursor(fingerprint, states[3] as CursorState);
    const bytes = Buffer.from(cursor, 'base64url');
    const forged = [
      '',
      'abc',
      '%%%',
      `${cursor}=`,
      `${cursor.slice(0, -1)}+`,
      Buffer.concat([bytes, Buffer.from([0])]).toString('base64url'),
      ...Array.from({ length: bytes.length - 1 }, (_, end) => bytes.subarray(0, end + 1).toString('base64url')),
      Buffer.from([2, ...Array(8).fill(0), 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]).toString('base64url'),
      Buffer.from('{"v":1}').toString('base64url'),
      Buffer.from([9, 1, 2, 3]).toString('base64url'),
    ];
    for (const text of forged) expect(decodeCursor(text, fingerprint), text).to.equal('malformed');
    // An id outside the id alphabet, a number in no known form, and more numbers than a walk has.
    const head = headOf(cursor);
    const withId = (id: string): string => sealed(Buffer.concat([head, Buffer.from([231, 15, 5, 2, id.length]), Buffer.from(id, 'latin1'), Buffer.from([0, 0])]));
    expect(decodeCursor(withId('svg-1'), fingerprint)).not.to.equal('malformed');
    expect(decodeCursor(withId('SVG 1'), fingerprint)).to.equal('malformed');
    const tail = (numbers: number[]): string => sealed(Buffer.concat([head, Buffer.from([231, 15, 5, 2, 1, 0x61]), Buffer.from(numbers)]));
    expect(decodeCursor(tail([1, 4, 0]), fingerprint)).not.to.equal('malformed');
    expect(decodeCursor(tail([1, 3, 0]), fingerprint)).to.equal('malformed');
    expect(decodeCursor(tail([65, ...Array(65).fill(0), 0]), fingerprint)).to.equal('malformed');
  });

  it('refuse every cursor with one byte or one character changed, whatever it becomes', () => {
    for (const state of states) {
      const cursor = encodeCursor(fingerprint, state);
      const bytes = Buffer.from(cursor, 'base64url');
      for (let at = 0; at < bytes.length; at += 1) {
        for (let value = 0; value < 256; value += 1) {
          if (value === bytes[at]) continue;
          const altered = Buffer.from(bytes);
          altered[at] = value;
          expect(decodeCursor(altered.toString('base64url'), fingerprint), `byte ${at} = ${value} of ${cursor}`).to.equal('malformed');
        }
      }
      for (let at = 0; at < cursor.length; at += 1) {
        for (const character of BASE64URL) {
          if (character === cursor[at]) continue;
          const altered = `${cursor.slice(0, at)}${character}${cursor.slice(at + 1)}`;
          expect(decodeCursor(altered, fingerprint), `character ${at} = ${character} of ${cursor}`).to.equal('malformed');
        }
      }
    }
  });

  it('of the earlier forms, given out before the check value, are no longer read', () => {
    const json = Buffer.from(JSON.stringify({ v: 1, f: fingerprint, n: 40, d: '2026-05-02', i: 'game-o3-73309de0', r: [1, 1, 1], z: [0, 1, 0.5] })).toString('base64url');
    const packed = Buffer.concat([Buffer.from([2]), Buffer.from(fingerprint, 'base64url'), Buffer.from([40, 234, 15, 5, 2, 1, 0x61, 0, 0])]).toString('base64url');
    for (const old of [json, packed]) {
      expect(decodeCursor(old, fingerprint)).to.equal('malformed');
      expect(decodeCursor(sealed(Buffer.from(old, 'base64url')), fingerprint), 'even with a check value').to.equal('malformed');
    }
  });
});
