import type { Context } from 'koa';
import { UndecodableValue } from '../validation/read-params.ts';
import type { RawQuery } from '../validation/read-params.ts';

/** A query-string component decoded as a form does (`+` is a space), or undefined when its percent-encoding is not UTF-8. */
function decodedComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * The parameters of a query string whose name or value is not percent-encoded UTF-8 (a `%` not
 * followed by two hex digits, or bytes that are no UTF-8), each with its value as written; a
 * parameter is named by its decoded name, or as written when the name itself cannot be decoded.
 */
export function undecodableParameters(querystring: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const pair of querystring.split('&')) {
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? '' : pair.slice(equals + 1);
    const name = decodedComponent(rawName);
    if (name === undefined || decodedComponent(rawValue) === undefined) found.set(name ?? rawName, rawValue);
  }
  return found;
}

/**
 * A request's query parameters for the API's checks: Koa's, with each value that is not
 * percent-encoded UTF-8 marked UndecodableValue, so the 400 names it with every other bad
 * parameter. (Koa hands such a value over as its raw text: `q=%E0%A4%A` searched for `%E0%A4%A`.)
 */
export function queryOf(ctx: Context): RawQuery {
  const query = ctx.query as RawQuery;
  // Only an escape can be malformed: most query strings hold none and are not split again.
  if (!ctx.querystring.includes('%')) return query;
  const undecodable = undecodableParameters(ctx.querystring);
  if (undecodable.size === 0) return query;
  const marked: RawQuery = { ...query };
  for (const [name, written] of undecodable) marked[name] = new UndecodableValue(written);
  return marked;
}
