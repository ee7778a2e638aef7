import { renderToString } from 'preact-render-to-string';
import type { VNode } from 'preact';

/** A page as an HTML document; preact escapes every text and attribute value. */
export function renderDocument<P>(page: VNode<P>): string {
  return `<!doctype html>${renderToString(page)}`;
}
