/** Text as XML character data or an attribute value: the five markup characters escaped, characters XML 1.0 forbids dropped. */
export function xmlText(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these characters; they are dropped
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
