/**
 * The optimal-string-alignment (restricted Damerau–Levenshtein) distance, which the typo search
 * verifies its candidates with and the parameter validation finds the name a client meant by.
 */

/** Rows of the distance table, reused by every call (a typo search compares up to a hundred thousand terms a word). */
let distanceRows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

/** Distance between a and b counting insertions, deletions, substitutions and adjacent transpositions; stops early above max. */
export function damerauDistance(a: string, b: string, max: number): number {
  const lengthA = a.length;
  const lengthB = b.length;
  if (Math.abs(lengthA - lengthB) > max) return max + 1;
  if (distanceRows[0].length <= lengthB) distanceRows = [new Int32Array(2 * (lengthB + 1)), new Int32Array(2 * (lengthB + 1)), new Int32Array(2 * (lengthB + 1))];
  let [previousPrevious, previous, current] = distanceRows;
  for (let j = 0; j <= lengthB; j += 1) previous[j] = j;
  for (let i = 1; i <= lengthA; i += 1) {
    current[0] = i;
    let rowMinimum = i;
    const codeA = a.charCodeAt(i - 1);
    for (let j = 1; j <= lengthB; j += 1) {
      const cost = codeA === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && codeA === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        value = Math.min(value, (previousPrevious[j - 2] ?? 0) + 1);
      }
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > max) return max + 1;
    const oldest = previousPrevious;
    previousPrevious = previous;
    previous = current;
    current = oldest;
  }
  return previous[lengthB] ?? max + 1;
}
