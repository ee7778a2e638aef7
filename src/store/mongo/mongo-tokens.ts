import { timingSafeEqual } from 'node:crypto';
import type { TokenStore } from '../../domain/ports.ts';
import type { TokenRecord, TokenScope } from '../../domain/submission.ts';
import { fromTokenDocument } from './documents.ts';
import { isDuplicateKeyError } from './mongo-database.ts';
import type { MongoArchiveDatabase } from './mongo-database.ts';

/** Access tokens in MongoDB, found by the SHA-256 of their secret (unique index). */
export class MongoTokenStore implements TokenStore {
  constructor(private readonly database: MongoArchiveDatabase) {}

  private get tokens() {
    return this.database.collections.tokens;
  }

  async createToken(name: string, scopes: readonly TokenScope[], secretSha256: string): Promise<TokenRecord> {
    const document = { name, secretSha256, scopes: [...scopes], createdAt: new Date().toISOString(), revokedAt: null };
    try {
      await this.tokens.insertOne({ ...document });
    } catch (error) {
      if (isDuplicateKeyError(error) && (await this.tokens.findOne({ name }, this.database.bounded))) throw new Error(`a token named "${name}" exists already`, { cause: error });
      throw error;
    }
    return fromTokenDocument(document);
  }

  async findActiveToken(secretSha256: string): Promise<TokenRecord | undefined> {
    const document = await this.tokens.findOne({ secretSha256 }, this.database.bounded);
    if (!document || document.revokedAt) return undefined;
    const stored = Buffer.from(document.secretSha256, 'hex');
    const presented = Buffer.from(secretSha256, 'hex');
    if (stored.length !== presented.length || !timingSafeEqual(stored, presented)) return undefined;
    return fromTokenDocument(document);
  }

  async listTokens(): Promise<TokenRecord[]> {
    return (await this.tokens.find({}, this.database.bounded).sort({ createdAt: 1, name: 1 }).toArray()).map(fromTokenDocument);
  }

  async revokeToken(name: string): Promise<boolean> {
    const result = await this.tokens.updateOne({ name, revokedAt: null }, { $set: { revokedAt: new Date().toISOString() } });
    return result.matchedCount > 0;
  }
}
