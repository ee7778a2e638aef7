import { DOMParser } from '@xmldom/xmldom';
import type { Document, Element } from '@xmldom/xmldom';

/** Parses XML strictly: any warning or error of the parser fails the test. */
export function parseXml(text: string): Document {
  return new DOMParser({
    onError: (level, message) => {
      throw new Error(`XML ${level}: ${message}`);
    },
  }).parseFromString(text, 'text/xml');
}

/** The child elements of an element in a namespace, optionally by local name. */
export function children(parent: Element, namespace: string, localName?: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    if (element.namespaceURI === namespace && (localName === undefined || element.localName === localName)) found.push(element);
  }
  return found;
}

/** The text of the one child element of that name; fails when there is not exactly one. */
export function onlyText(parent: Element, namespace: string, localName: string): string {
  const found = children(parent, namespace, localName);
  if (found.length !== 1) throw new Error(`<${parent.localName}> has ${found.length} <${localName}> elements, not one`);
  return found[0]?.textContent ?? '';
}
