import type { Context, Next } from 'koa';
import { ProblemError } from '../../errors.ts';
import type { RateDecision, RateLimiter, RatePolicy } from '../../rate-limit/limiter.ts';
import { clientKey } from '../../rate-limit/client-key.ts';
import { tagsListed } from '../read-route.ts';

/** Paths never counted: health probes and the site's own static assets. */
const EXEMPT_PATHS = /^\/(healthz|readyz)$|^\/assets\//;

function seconds(milliseconds: number): number {
  return Math.max(1, Math.ceil(milliseconds / 1000));
}

/** Told of every request a policy refuses (for the refusal counts in /metrics). */
export type RefusalListener = (policy: string) => void;

/** The RateLimit-Policy field: the quota and its window. */
function announcePolicy(ctx: Context, policy: RatePolicy): void {
  ctx.append('RateLimit-Policy', `"${policy.name}";q=${policy.limit};w=${seconds(policy.windowMs)}`);
}

/** Counts one request and announces the policy and the client's standing (IETF RateLimit fields); 429 when over. */
export async function enforce(ctx: Context, limiter: RateLimiter, policy: RatePolicy, key: string, what: string, refused?: RefusalListener): Promise<void> {
  const decision: RateDecision = await limiter.take(key, policy);
  const reset = seconds(decision.resetMs);
  announcePolicy(ctx, policy);
  ctx.append('RateLimit', `"${policy.name}";r=${decision.remaining};t=${reset}`);
  if (decision.allowed) return;
  refused?.(policy.name);
  throw new ProblemError('too-many-requests', `Too many requests ${what}: at most ${policy.limit} per ${seconds(policy.windowMs)} seconds. Try again in ${reset} seconds.`, {
    headers: { 'Retry-After': String(reset) },
  });
}

/**
 * Counts `calls - 1` more requests of the client against the policy, for a request that makes
 * `calls` calls (an MCP batch), the request itself having been counted once by limitByClient: all
 * or none, a 429 when they do not fit in what is left of the window. The RateLimit field then
 * gives the standing after them.
 */
export async function chargeCalls(ctx: Context, limiter: RateLimiter, policy: RatePolicy, calls: number, refused?: RefusalListener): Promise<void> {
  if (calls <= 1) return;
  const decision = await limiter.take(clientKey(ctx.ip), policy, calls - 1);
  const reset = seconds(decision.resetMs);
  ctx.set('RateLimit', `"${policy.name}";r=${decision.remaining};t=${reset}`);
  if (decision.allowed) return;
  refused?.(policy.name);
  throw new ProblemError('too-many-requests', `Too many requests from this address: this batch makes ${calls} calls, each counted as a request, and ${decision.remaining + 1} fit in what is left of ${policy.limit} per ${seconds(policy.windowMs)} seconds. Send fewer calls at once, or try again in ${reset} seconds.`, {
    headers: { 'Retry-After': String(reset) },
  });
}

/**
 * Limits every request per client address, except OPTIONS preflights, health probes and static
 * assets. A conditional read (GET or HEAD with If-None-Match naming tags) is counted only once its
 * answer is known, and not at all when it is 304: revalidating what a client already holds costs
 * it nothing (its answer names the policy, RateLimit-Policy, but no standing). A client already
 * over the limit is refused before its conditional read is answered, though: any made-up tag would
 * otherwise have the whole answer computed for each request, only to refuse it after.
 */
export function limitByClient(limiter: RateLimiter, policy: RatePolicy, refused?: RefusalListener) {
  return async function clientRateLimit(ctx: Context, next: Next): Promise<void> {
    if (ctx.method === 'OPTIONS' || EXEMPT_PATHS.test(ctx.path)) return next();
    const key = clientKey(ctx.ip);
    // `*` matches any answer (RFC 9110 §13.1.2) and so revalidates nothing a client was sent: it
    // counts, or every search would be free to anyone who sends it.
    const held = tagsListed(ctx, 'If-None-Match');
    const conditional = (ctx.method === 'GET' || ctx.method === 'HEAD') && held.length > 0 && !held.includes('*');
    if (!conditional) {
      await enforce(ctx, limiter, policy, key, 'from this address', refused);
      return next();
    }
    if (!(await limiter.take(key, policy, 0)).allowed) await enforce(ctx, limiter, policy, key, 'from this address', refused);
    let failure: { error: unknown } | undefined;
    try {
      await next();
    } catch (error) {
      failure = { error };
    }
    if (!failure && ctx.status === 304) {
      // Not counted, so no standing to announce (RateLimit); the policy still applies.
      announcePolicy(ctx, policy);
      return;
    }
    try {
      await enforce(ctx, limiter, policy, key, 'from this address', refused);
    } catch (refusal) {
      // The answer computed for the request is dropped: nothing of it may describe the 429.
      for (const header of ['Content-Encoding', 'Cache-Control', 'Link', 'ETag']) ctx.remove(header);
      throw refusal;
    }
    if (failure) throw failure.error;
  };
}
