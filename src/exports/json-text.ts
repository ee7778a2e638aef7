/**
 * A value as JSON text for an export file: JSON.stringify's, with U+2028 and U+2029 (which JSON
 * allows raw in strings) written as escapes. Readers that split text into lines take them for line
 * ends (Python's str.splitlines, editors), and an NDJSON record holding one fell in two. The value
 * read back is the same.
 */
export function exportJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (separator) => (separator === '\u2028' ? '\\u2028' : '\\u2029'));
}
