import type { Context, Next } from 'koa';
import { listedNames, ProblemError } from '../../errors.ts';

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
 * followed by two hex digits, or bytes that are no UTF-8), each named once: by its decoded name,
 * or as written when the name itself cannot be decoded.
 */
export function badlyEncodedParameters(querystring: string): string[] {
  const names = new Set<string>();
  for (const pair of querystring.split('&')) {
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const name = decodedComponent(rawName);
    if (name === undefined || (equals !== -1 && decodedComponent(pair.slice(equals + 1)) === undefined)) names.add(name ?? rawName);
  }
  return [...names];
}

/**
 * Refuses a query string that is not percent-encoded UTF-8 with a 400 naming each such parameter.
 * Koa reads such a value as its raw text, so `q=%E0%A4%A` searched for the characters `%E0%A4%A`
 * and answered records that had nothing to do with what the client meant.
 */
export function refuseBadlyEncodedQueries() {
  return async function queryEncodingMiddleware(ctx: Context, next: Next): Promise<void> {
    const querystring = ctx.querystring;
    // Only an escape can be malformed: most query strings hold none and are not split at all.
    const bad = querystring.includes('%') ? badlyEncodedParameters(querystring) : [];
    if (bad.length > 0) {
      throw new ProblemError('invalid-parameters', `Invalid ${bad.length === 1 ? 'parameter' : 'parameters'}: ${listedNames(bad)}.`, {
        errors: bad.map((parameter) => ({ parameter, message: 'is not percent-encoded UTF-8: write each byte that is not a letter, digit or one of -._~ as %XX of its UTF-8 (encodeURIComponent does)' })),
      });
    }
    await next();
  };
}
