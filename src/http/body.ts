import type { Context } from 'koa';
import { BODY_FIELD, ProblemError } from '../errors.ts';
import { inviteBody } from './client-errors.ts';

/** Reads the raw request body, refusing (413) more than limit bytes, by declared length or as it streams. */
export async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  const tooLarge = (): ProblemError => new ProblemError('payload-too-large', `The request body may be at most ${limit} bytes.`);
  if (Number(ctx.get('Content-Length') || 0) > limit) throw tooLarge();
  inviteBody(ctx.req, ctx.res);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Refuses (415) a body in a content coding other than identity: bodies are read as sent, so a
 * compressed one would only fail as JSON, and its size limit would hold for the compressed bytes.
 * The answer's Accept-Encoding says what is read (RFC 9110 §15.5.16).
 */
export function refuseContentCoding(ctx: Context): void {
  const codings = ctx.get('Content-Encoding').split(',').map((coding) => coding.trim().toLowerCase()).filter(Boolean);
  if (codings.every((coding) => coding === 'identity')) return;
  throw new ProblemError('unsupported-media-type', `The body's content coding (${codings.join(', ')}) is not read here: send the body uncompressed (Content-Encoding: identity, or none).`, { headers: { 'Accept-Encoding': 'identity' } });
}

/** Decodes UTF-8 strictly: a byte sequence that is no UTF-8 throws rather than becoming U+FFFD in a stored text. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The charset a Content-Type names, in lower case, or undefined when it names none. */
function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1]?.toLowerCase();
}

/**
 * Reads a JSON body: 415 unless application/json (in UTF-8, the only encoding JSON exchanged
 * between systems may use, RFC 8259 §8.1) and uncompressed, 413 above limit, 400 when its bytes
 * are not UTF-8 or it does not parse. Returns the value and its raw bytes.
 */
export async function readJsonBody(ctx: Context, limit: number): Promise<{ value: unknown; raw: Buffer }> {
  if (!ctx.is('application/json')) throw new ProblemError('unsupported-media-type', 'Send the body as application/json.');
  const charset = charsetOf(ctx.get('Content-Type'));
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw new ProblemError('unsupported-media-type', `The body is read as UTF-8 alone (JSON's encoding), not ${charset}: send it in UTF-8, with charset=utf-8 or no charset.`);
  refuseContentCoding(ctx);
  const raw = await readRawBody(ctx, limit);
  let text: string;
  try {
    text = STRICT_UTF8.decode(raw);
  } catch (error) {
    throw new ProblemError('invalid-parameters', 'The body is not UTF-8.', { errors: [{ field: BODY_FIELD, message: 'must be UTF-8: it holds bytes that are no UTF-8 character' }], cause: error });
  }
  try {
    return { value: JSON.parse(text), raw };
  } catch (error) {
    throw new ProblemError('invalid-parameters', 'The body is not valid JSON.', { errors: [{ field: BODY_FIELD, message: 'must be valid JSON' }], cause: error });
  }
}
