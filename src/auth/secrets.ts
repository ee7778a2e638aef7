import { createHash, randomBytes } from 'node:crypto';

/** A new token secret: a recognisable prefix and 32 random bytes. */
export function generateSecret(): string {
  return `mwa_${randomBytes(32).toString('base64url')}`;
}

/** The only form in which a secret is stored or compared. */
export function secretSha256(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
