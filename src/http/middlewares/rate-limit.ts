import type { Context, Next } from 'koa';
import { ProblemError } from '../../errors.ts';
import type { RateDecision, RateLimiter, RatePolicy } from '../../rate-limit/limiter.ts';
import { clientKey } from '../../rate-limit/client-key.ts';

/** Paths never counted: health probes and the site's own static assets. */
const EXEMPT_PATHS = /^\/(healthz|readyz)$|^\/assets\//;

function seconds(milliseconds: number): number {
  return Math.max(1, Math.ceil(milliseconds / 1000));
}

/** Told of every request a policy refuses (for the refusal counts in /metrics). */
export type RefusalListener = (policy: string) => void;

/** Counts one request and announces the policy and the client's standing (IETF RateLimit fields); 429 when over. */
export async function enforce(ctx: Context, limiter: RateLimiter, policy: RatePolicy, key: string, what: string, refused?: RefusalListener): Promise<void> {
  const decision: RateDecision = await limiter.take(key, policy);
  const reset = seconds(decision.resetMs);
  ctx.append('RateLimit-Policy', `"${policy.name}";q=${policy.limit};w=${seconds(policy.windowMs)}`);
  ctx.append('RateLimit', `"${policy.name}";r=${decision.remaining};t=${reset}`);
  if (decision.allowed) return;
  refused?.(policy.name);
  throw new ProblemError('too-many-requests', `Too many requests ${what}: at most ${policy.limit} per ${seconds(policy.windowMs)} seconds. Try again in ${reset} seconds.`, {
    headers: { 'Retry-After': String(reset) },
  });
}

/** Limits every request per client address, except OPTIONS preflights, health probes and static assets. */
export function limitByClient(limiter: RateLimiter, policy: RatePolicy, refused?: RefusalListener) {
  return async function clientRateLimit(ctx: Context, next: Next): Promise<void> {
    if (ctx.method === 'OPTIONS' || EXEMPT_PATHS.test(ctx.path)) return next();
    await enforce(ctx, limiter, policy, clientKey(ctx.ip), 'from this address', refused);
    return next();
  };
}
