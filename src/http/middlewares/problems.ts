import type { Context, Next } from 'koa';
import { ProblemError, UNAVAILABLE_RETRY_SECONDS, problemBody } from '../../errors.ts';
import { withoutSecrets } from '../../auth/secrets.ts';
import { errorSummary, rootCause } from '../../logger.ts';
import type { Logger } from '../../logger.ts';

/** How long without a request that met an unavailable backing service ends an outage, for the log. */
export const OUTAGE_QUIET_MS = 60_000;

/**
 * Logs the requests that met an unavailable backing service once per outage: the first as a
 * warning naming the cause (the innermost error: `ECONNREFUSED: connect ECONNREFUSED …`), without
 * a stack; the later ones not, until the cause changes or no such request came for `quietMs` (the
 * service answered again, or nobody asked), when the next is logged again, with how many requests
 * met the last cause. One line per request was 3 KB of stack each, every few seconds, for as long
 * as a search engine was down.
 */
export class UnavailableLog {
  private cause: string | undefined;
  private lastSeen = -Infinity;
  private requests = 0;

  constructor(
    private readonly logger: Logger,
    private readonly quietMs = OUTAGE_QUIET_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  note(method: string, path: string, error: unknown): void {
    const name = error instanceof Error ? error.name : typeof error;
    const cause = `${name}: ${rootCause(error)}`;
    const now = this.now();
    const fresh = cause !== this.cause || now - this.lastSeen >= this.quietMs;
    this.lastSeen = now;
    if (!fresh) {
      this.requests += 1;
      return;
    }
    const before = this.cause === undefined ? {} : { previous: { cause: this.cause, requests: this.requests } };
    this.cause = cause;
    this.requests = 1;
    this.logger.warn('backing service unavailable', { method, path, reason: errorSummary(error), note: 'answered 503 with Retry-After; later requests that meet the same cause are not logged', ...before });
  }
}

/** The HTML page a request gets for a problem instead of problem+json (a browser's 429), or undefined. */
export type ProblemPage = (ctx: Context, problem: ProblemError) => string | undefined;

/**
 * Turns every error into an RFC 9457 problem+json response; unexpected errors are logged and
 * never shown. `page` may answer a problem with HTML instead, keeping its status and headers.
 */
export function problems(baseUrl: string, logger: Logger, isUnavailable: (error: unknown) => boolean = () => false, page: ProblemPage = () => undefined) {
  const outages = new UnavailableLog(logger);
  return async function problemMiddleware(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      const unavailable = !(error instanceof ProblemError) && isUnavailable(error);
      if (unavailable) outages.note(ctx.method, withoutSecrets(ctx.path), error);
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
