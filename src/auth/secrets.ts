import { createHash, randomBytes } from 'node:crypto';

/** The prefix every token secret starts with, so one is recognised wherever it turns up. */
const SECRET_PREFIX = 'mwa_';

/** A new token secret: a recognisable prefix and 32 random bytes. */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Anything shaped like a token secret, as written in text or percent-encoded in a query string. */
const SECRET_IN_TEXT = new RegExp(`${SECRET_PREFIX}[A-Za-z0-9_%-]+`, 'g');

/** Text with every token secret in it replaced by `mwa_…`: what a log may hold of one a client misplaced (a query string). */
export function withoutSecrets(text: string): string {
  return text.replace(SECRET_IN_TEXT, `${SECRET_PREFIX}…`);
}

/** The only form in which a secret is stored or compared. */
export function secretSha256(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
