import type { Context, Middleware } from 'koa';

/**
 * A path of this site, with the query when there is one, as a link or a Location may name it: it
 * can never lead to another site, its leading slashes being collapsed (//host is
 * protocol-relative) and a raw backslash escaped, since a browser reads `\` in an address as `/`
 * (so /\host would be //host).
 */
export function onSiteAddress(path: string, querystring: string): string {
  return `/${path.replace(/\\/g, '%5C').replace(/^\/+/, '')}${querystring ? `?${querystring}` : ''}`;
}

/**
 * Answers 301 to another address of this site (onSiteAddress), keeping the query, with a body
 * that does not depend on Accept (Koa's would, without saying so in Vary).
 */
export function redirectOnSite(ctx: Context, path: string): void {
  const location = onSiteAddress(path, ctx.querystring);
  ctx.status = 301;
  ctx.set('Location', location);
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `Moved to ${location}\n`;
}

/** The addresses of pages (folders) written without their trailing slash. */
const FOLDER_WITHOUT_SLASH = /^(?:\/en)?\/(?:timeline|developers|specimens\/[^/]+)$|^\/en$/;

/** Addresses of a resource that is not a page: the API, MCP, the probes, problem types, stored files, and any file name. */
const NOT_A_FOLDER = /^\/(?:api|mcp|healthz|readyz|problems|media|assets)(?:\/|$)|\.[a-z0-9]+$/;

/** A percent-encoded unreserved character (a letter, digit, `-`, `.`, `_` or `~`): the same address as the character itself (RFC 3986 §6.2.2.2). */
const ENCODED_UNRESERVED = /%(?:[46][1-9a-f]|[57][0-9a]|3[0-9]|2[de]|5f|7e)/gi;

/**
 * The one address of what a GET or HEAD asks for: unreserved characters as themselves
 * (`/api/v1/%73pecimens` is `/api/v1/specimens`), lower case (every address of the site is) but
 * for other escapes, whose hexadecimal digits are capitals, one slash between segments, and a
 * trailing slash on pages (folders) and on nothing else.
 */
export function canonicalPath(path: string): string {
  const decoded = path.replace(ENCODED_UNRESERVED, (escape) => String.fromCharCode(Number.parseInt(escape.slice(1), 16)));
  let canonical = decoded
    .toLowerCase()
    .replace(/%[0-9a-f]{2}/g, (escape) => escape.toUpperCase())
    .replace(/\/{2,}/g, '/');
  if (canonical.length > 1 && canonical.endsWith('/') && NOT_A_FOLDER.test(canonical.slice(0, -1))) canonical = canonical.slice(0, -1);
  return canonical;
}

/**
 * One address per resource. Routes match whatever the case and with or without a trailing slash,
 * so `/EN/`, `/api/v1/specimens/`, `/openapi.json/` and `/en//` were each a second copy of a
 * resource: a cache kept them apart, and a page claimed itself canonical under each. A GET or
 * HEAD of such an address answers 301 to the one every link names, in one step (a page's folder
 * slash added with the rest: `/en/Timeline` goes to `/en/timeline/`), keeping the query. Other
 * methods go on to the routes, which answer them as before.
 */
export function canonicalAddresses(): Middleware {
  return async function canonicalAddress(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const canonical = canonicalPath(ctx.path);
    if (canonical === ctx.path) return next();
    redirectOnSite(ctx, FOLDER_WITHOUT_SLASH.test(canonical) ? `${canonical}/` : canonical);
  };
}
