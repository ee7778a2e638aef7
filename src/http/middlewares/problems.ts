import type { Context, Next } from 'koa';
import { ProblemError, UNAVAILABLE_RETRY_SECONDS, problemBody } from '../../errors.ts';
import { withoutSecrets } from '../../auth/secrets.ts';
import type { Logger } from '../../logger.ts';

/** The HTML page a request gets for a problem instead of problem+json (a browser's 429), or undefined. */
export type ProblemPage = (ctx: Context, problem: ProblemError) => string | undefined;

/**
 * Turns every error into an RFC 9457 problem+json response; unexpected errors are logged and
 * never shown. `page` may answer a problem with HTML instead, keeping its status and headers.
 */
export function problems(baseUrl: string, logger: Logger, isUnavailable: (error: unknown) => boolean = () => false, page: ProblemPage = () => undefined) {
  return async function problemMiddleware(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      const unavailable = !(error instanceof ProblemError) && isUnavailable(error);
      if (unavailable) logger.warn('backing service unavailable', { method: ctx.method, path: withoutSecrets(ctx.path), error });
      const known = error instanceof ProblemError ? error : unavailable ? unavailableProblem(error) : toProblem(error);
      if (!known) logger.error('request failed', { method: ctx.method, path: withoutSecrets(ctx.path), error });
      const { status, body, headers } = problemBody(known ?? error, baseUrl, ctx.path);
      ctx.status = status;
      ctx.set(headers);
      ctx.remove('ETag');
      const html = known ? page(ctx, known) : undefined;
      ctx.body = html ?? body;
      ctx.type = html === undefined ? 'application/problem+json' : 'text/html; charset=utf-8';
    }
  };
}

function unavailableProblem(cause: unknown): ProblemError {
  return new ProblemError('service-unavailable', 'A service behind the archive cannot be reached right now. Try again shortly.', { headers: { 'Retry-After': String(UNAVAILABLE_RETRY_SECONDS) }, cause });
}

/** Errors raised by Koa and its body parsers that carry an HTTP status of their own. */
function toProblem(error: unknown): ProblemError | undefined {
  const status = (error as { status?: unknown; expose?: unknown })?.status;
  if (typeof status !== 'number') return undefined;
  if (status === 413) return new ProblemError('payload-too-large', 'The request body is larger than this endpoint accepts.', { cause: error });
  if (status === 415) return new ProblemError('unsupported-media-type', 'Send the body as application/json.', { cause: error });
  if (status === 400) return new ProblemError('invalid-parameters', 'The request could not be read.', { cause: error });
  return undefined;
}
