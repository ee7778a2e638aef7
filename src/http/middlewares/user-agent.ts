import type { Context, Next } from 'koa';
import { ProblemError } from '../../errors.ts';

/** User-Agents that HTTP libraries and tools send by default: they say nothing about who is calling. */
const GENERIC_USER_AGENT = /^(curl|wget|python-requests|python-urllib|python-httpx|aiohttp|httpx|go-http-client|node-fetch|node|undici|axios|got|okhttp|java|apache-httpclient|libwww-perl|lwp-trivial|postmanruntime|httpie|ruby|faraday|http\.rb|reqwest|dart|restsharp|guzzlehttp|php|scrapy)([/ ]|$)/i;

/** True when a User-Agent is missing or a library default. */
export function isGenericUserAgent(userAgent: string): boolean {
  return userAgent.trim() === '' || GENERIC_USER_AGENT.test(userAgent.trim());
}

/**
 * With ARCHIVE_REJECT_GENERIC_UA=1: refuses requests whose User-Agent is missing or a library
 * default (403 problem+json saying what to send). Health probes are exempt.
 */
export function rejectGenericUserAgents() {
  return async function userAgentMiddleware(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== '/healthz' && ctx.path !== '/readyz' && ctx.method !== 'OPTIONS' && isGenericUserAgent(ctx.get('User-Agent'))) {
      throw new ProblemError(
        'forbidden',
        'Send an application-specific User-Agent that names your application and how to reach you, e.g. "my-research-bot/1.2 (+https://example.org/bot; mailto:me@example.org)". Library defaults such as curl/8 or python-requests/2 are refused here.',
        { errors: [{ parameter: 'User-Agent', message: 'must name your application, not an HTTP library' }] },
      );
    }
    await next();
  };
}
