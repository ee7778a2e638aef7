import { expect } from 'chai';
import type { TokenStore } from '../../src/domain/ports.ts';

/** Opens a fresh, empty token store and a function that disposes of it. */
export type TokenStoreFactory = () => Promise<{ tokens: TokenStore; dispose: () => Promise<void> }>;

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

/** The behaviour every TokenStore adapter must show. */
export function tokenStoreContract(name: string, open: TokenStoreFactory): void {
  describe(`TokenStore contract: ${name}`, () => {
    let tokens: TokenStore;
    let dispose: () => Promise<void>;
    beforeEach(async () => {
      ({ tokens, dispose } = await open());
    });
    afterEach(async () => dispose());

    it('finds an active token by the SHA-256 of its secret, and nothing for another hash', async () => {
      const created = await tokens.createToken('bot', ['ingest', 'export'], HASH_A);
      expect(created).to.deep.include({ name: 'bot', scopes: ['ingest', 'export'], revokedAt: null });
      expect(await tokens.findActiveToken(HASH_A)).to.deep.equal(created);
      expect(await tokens.findActiveToken(HASH_B)).to.equal(undefined);
      expect(await tokens.findActiveToken('abc')).to.equal(undefined);
    });

    it('refuses a second token of the same name', async () => {
      await tokens.createToken('bot', ['ingest'], HASH_A);
      let message = '';
      try {
        await tokens.createToken('bot', ['export'], HASH_B);
      } catch (error) {
        message = error instanceof Error ? error.message : String(error);
      }
      expect(message).to.match(/exists already/);
      expect(await tokens.listTokens()).to.have.length(1);
    });

    it('lists tokens and revokes one by name', async () => {
      await tokens.createToken('first', ['ingest'], HASH_A);
      await tokens.createToken('second', ['export'], HASH_B);
      expect((await tokens.listTokens()).map((token) => token.name)).to.have.members(['first', 'second']);
      expect(await tokens.revokeToken('first')).to.equal(true);
      expect(await tokens.revokeToken('first')).to.equal(false);
      expect(await tokens.revokeToken('nobody')).to.equal(false);
      expect(await tokens.findActiveToken(HASH_A)).to.equal(undefined);
      const listed = await tokens.listTokens();
      expect(listed.find((token) => token.name === 'first')?.revokedAt).to.be.a('string');
      expect(await tokens.findActiveToken(HASH_B)).to.deep.include({ name: 'second' });
    });
  });
}
