import { timingSafeEqual } from 'node:crypto';
import type { TokenStore } from '../../domain/ports.ts';
import type { TokenRecord, TokenScope } from '../../domain/submission.ts';
import type { SqliteDatabase } from './database.ts';

interface TokenRow {
  name: string;
  secret_sha256: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

function toToken(row: TokenRow): TokenRecord {
  return { name: row.name, scopes: row.scopes.split(',').filter(Boolean) as TokenScope[], createdAt: row.created_at, revokedAt: row.revoked_at };
}

/** Tokens in the embedded store (table `tokens`, created by the store's migrations). */
export class SqliteTokenStore implements TokenStore {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      insert: db.prepare('INSERT INTO tokens (name, secret_sha256, scopes, created_at) VALUES (?, ?, ?, ?)'),
      byHash: db.prepare<[string], TokenRow>('SELECT * FROM tokens WHERE secret_sha256 = ?'),
      all: db.prepare<[], TokenRow>('SELECT * FROM tokens ORDER BY created_at, name'),
      revoke: db.prepare('UPDATE tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL'),
      byName: db.prepare<[string], TokenRow>('SELECT * FROM tokens WHERE name = ?'),
    };
  }

  async createToken(name: string, scopes: readonly TokenScope[], secretSha256: string): Promise<TokenRecord> {
    if (this.statements.byName.get(name)) throw new Error(`a token named "${name}" exists already`);
    const createdAt = new Date().toISOString();
    this.statements.insert.run(name, secretSha256, scopes.join(','), createdAt);
    return { name, scopes: [...scopes], createdAt, revokedAt: null };
  }

  async findActiveToken(secretSha256: string): Promise<TokenRecord | undefined> {
    const row = this.statements.byHash.get(secretSha256);
    if (!row || row.revoked_at) return undefined;
    const stored = Buffer.from(row.secret_sha256, 'hex');
    const presented = Buffer.from(secretSha256, 'hex');
    if (stored.length !== presented.length || !timingSafeEqual(stored, presented)) return undefined;
    return toToken(row);
  }

  async listTokens(): Promise<TokenRecord[]> {
    return this.statements.all.all().map(toToken);
  }

  async revokeToken(name: string): Promise<boolean> {
    return this.statements.revoke.run(new Date().toISOString(), name).changes > 0;
  }
}
