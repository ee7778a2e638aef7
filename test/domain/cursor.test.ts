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
    const withId = (id: string): string => Buffer.concat([bytes.subarray(0, 9), Buffer.from([20, 231, 15, 5, 2, id.length]), Buffer.from(id, 'latin1'), Buffer.from([0, 0])]).toString('base64url');
    expect(decodeCursor(withId('svg-1'), fingerprint)).not.to.equal('malformed');
    expect(decodeCursor(withId('SVG 1'), fingerprint)).to.equal('malformed');
    const tail = (numbers: number[]): string => Buffer.concat([bytes.subarray(0, 9), Buffer.from([20, 231, 15, 5, 2, 1, 0x61]), Buffer.from(numbers)]).toString('base64url');
    expect(decodeCursor(tail([1, 4, 0]), fingerprint)).not.to.equal('malformed');
    expect(decodeCursor(tail([1, 3, 0]), fingerprint)).to.equal('malformed');
    expect(decodeCursor(tail([65, ...Array(65).fill(0), 0]), fingerprint)).to.equal('malformed');
  });

  it('of the earlier JSON form, given out before, are still read', () => {
    const old = Buffer.from(JSON.stringify({ v: 1, f: fingerprint, n: 40, d: '2026-05-02', i: 'game-o3-73309de0', r: [1, 1, 1], z: [0, 1, 0.5] })).toString('base64url');
    expect(decodeCursor(old, fingerprint)).to.deep.equal({ returned: 40, position: { date: '2026-05-02', id: 'game-o3-73309de0', rank: [1, 1, 1], frozen: [0, 1, 0.5] } });
    expect(decodeCursor(old, otherFingerprint)).to.equal('other-query');
  });
});
