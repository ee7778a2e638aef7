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

/** Reads a JSON body: 415 unless application/json, 413 above limit, 400 when it does not parse. Returns the value and its raw bytes. */
export async function readJsonBody(ctx: Context, limit: number): Promise<{ value: unknown; raw: Buffer }> {
  if (!ctx.is('application/json')) throw new ProblemError('unsupported-media-type', 'Send the body as application/json.');
  const raw = await readRawBody(ctx, limit);
  try {
    return { value: JSON.parse(raw.toString('utf8')), raw };
  } catch (error) {
    throw new ProblemError('invalid-parameters', 'The body is not valid JSON.', { errors: [{ field: BODY_FIELD, message: 'must be valid JSON' }], cause: error });
  }
}
