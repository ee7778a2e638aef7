/**
 * A Bilibili video's two names: its `av` number (aid), which the platform's addresses used until
 * 2020 and still open, and its `BV` id (bvid), which they show now. The platform derives one from
 * the other by a fixed, documented encoding, so both can be read offline: the aid, with bit 51 set,
 * XOR a constant, written in base 58 into the nine places after `BV1`, two pairs of places swapped.
 */

const XOR_CODE = 23442827791579n;
const MASK_CODE = 2251799813685247n;
/** 2^51: aids are below it, and its bit marks the encoded number. */
export const MAX_AID = 1n << 51n;
const BASE = 58n;
const ALPHABET = 'FcwAPNKTMug3GV5Lj7EJnHpWsx4tb8haYeviqBz6rkCy12mUSDQX9RdoZf';
const PREFIX = 'BV1';
const LENGTH = 12;
/** The places swapped after the base-58 digits are written. */
const SWAPS: readonly (readonly [number, number])[] = [
  [3, 9],
  [4, 7],
];

/** A BV id as the encoding writes it: `BV1` and nine characters of the alphabet. */
export const BVID_PATTERN = new RegExp(`^${PREFIX}[${ALPHABET}]{9}$`);

function swapped(characters: string[]): string[] {
  const result = [...characters];
  for (const [a, b] of SWAPS) [result[a], result[b]] = [result[b] ?? '', result[a] ?? ''];
  return result;
}

/** The BV id of an aid (1 ≤ aid < 2^51); throws for another number. */
export function bvidOfAid(aid: bigint): string {
  if (aid < 1n || aid >= MAX_AID) throw new RangeError(`an aid is from 1 to 2^51 - 1, not ${aid}`);
  const characters = [...PREFIX, ...Array<string>(LENGTH - PREFIX.length).fill(ALPHABET[0] ?? '')];
  let rest = (MAX_AID | aid) ^ XOR_CODE;
  for (let place = LENGTH - 1; rest > 0n && place >= PREFIX.length; place -= 1) {
    characters[place] = ALPHABET[Number(rest % BASE)] ?? '';
    rest /= BASE;
  }
  return swapped(characters).join('');
}

/** The aid of a BV id, or undefined where the text is no BV id the encoding writes or names no aid. */
export function aidOfBvid(bvid: string): bigint | undefined {
  if (!BVID_PATTERN.test(bvid)) return undefined;
  let encoded = 0n;
  for (const character of swapped([...bvid]).slice(PREFIX.length)) encoded = encoded * BASE + BigInt(ALPHABET.indexOf(character));
  // The number written must carry the mark bit and no higher one, else no aid was encoded.
  if ((encoded ^ XOR_CODE) >> 51n !== 1n) return undefined;
  const aid = (encoded & MASK_CODE) ^ XOR_CODE;
  return aid >= 1n ? aid : undefined;
}
