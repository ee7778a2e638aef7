import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { VNode } from 'preact';
import { SiteAddressContext } from './site-address.ts';
import type { SiteAddress } from './site-address.ts';

/**
 * A page as an HTML document; preact escapes every text and attribute value. With the page's
 * address, the layout also writes the absolute links that link previews and search engines read.
 */
export function renderDocument<P>(page: VNode<P>, address?: SiteAddress): string {
  if (!address) return `<!doctype html>${renderToString(page)}`;
  return `<!doctype html>${renderToString(h(SiteAddressContext.Provider, { value: address }, page))}`;
}
