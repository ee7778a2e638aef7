import type { Context } from 'koa';
import { BODY_FIELD, ProblemError } from '../errors.ts';

/** Reads the raw request body, refusing (413) more than limit bytes, by declared length or as it streams. */
export async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  const tooLarge = (): ProblemError => new ProblemError('payload-too-large', `The request body may be at most ${limit} bytes.`);
  if (Number(ctx.get('Content-Length') || 0) > limit) throw tooLarge();
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

/** Reads a JSON body: 415 unless application/json and uncompressed, 413 above limit, 400 when it does not parse. Returns the value and its raw bytes. */
export async function readJsonBody(ctx: Context, limit: number): Promise<{ value: unknown; raw: Buffer }> {
  if (!ctx.is('application/json')) throw new ProblemError('unsupported-media-type', 'Send the body as application/json.');
  refuseContentCoding(ctx);
  const raw = await readRawBody(ctx, limit);
  try {
    return { value: JSON.parse(raw.toString('utf8')), raw };
  } catch (error) {
    throw new ProblemError('invalid-parameters', 'The body is not valid JSON.', { errors: [{ field: BODY_FIELD, message: 'must be valid JSON' }], cause: error });
  }
}
