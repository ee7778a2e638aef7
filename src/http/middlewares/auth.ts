import type { Context } from 'koa';
import type { TokenStore } from '../../domain/ports.ts';
import type { TokenRecord, TokenScope } from '../../domain/submission.ts';
import { secretSha256 } from '../../auth/secrets.ts';
import { ProblemError } from '../../errors.ts';

const REALM = 'Bearer realm="archive"';

/**
 * The token behind the request's Bearer credentials, holding the scope (or one of the scopes):
 * 401 with WWW-Authenticate when missing or invalid, 403 when the token lacks it.
 */
export async function authorize(ctx: Context, tokens: TokenStore, scope: TokenScope | readonly TokenScope[]): Promise<TokenRecord> {
  const header = ctx.get('Authorization');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    throw new ProblemError('unauthorized', 'Send an access token: Authorization: Bearer <token>.', { headers: { 'WWW-Authenticate': REALM } });
  }
  const token = await tokens.findActiveToken(secretSha256(match[1]));
  if (!token) {
    throw new ProblemError('unauthorized', 'The access token is not valid (unknown or revoked).', { headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` } });
  }
  const wanted: readonly TokenScope[] = typeof scope === 'string' ? [scope] : scope;
  if (!wanted.some((name) => token.scopes.includes(name))) {
    const named = wanted.map((name) => `"${name}"`).join(' or ');
    throw new ProblemError('forbidden', `This token lacks the ${named} scope.`, { headers: { 'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${wanted.join(' ')}"` } });
  }
  return token;
}
