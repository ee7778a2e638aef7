/**
 * Opening the Meilisearch index fails with a message naming MEILI_URL (and its value) or
 * MEILI_API_KEY (never its value), the cause and what to do. Against real servers only: a closed
 * loopback port, a host under .invalid, plain HTTP servers that are not Meilisearch (https asked of
 * one, a 404, an HTML page); and, when MEILI_URL is set, the Meilisearch it names with no key, a
 * wrong key and its Default Search API Key.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { openBackend } from '../../src/backend.ts';
import { meiliClient } from '../../src/search/meili/meili-search.ts';
import { errorOf } from '../helpers/error-of.ts';
import { closedAddress, sharedMeili, uniqueMeiliOptions } from '../helpers/meili.ts';
import { freePort } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';

/** A plain HTTP server on 127.0.0.1 answering every request with this status, type and body. */
async function plainServer(status: number, type: string, body: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(status, { 'Content-Type': type });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('opening the Meilisearch index names what is wrong', function () {
  this.timeout(60_000);
  let dataDir = '';
  beforeEach(() => {
    dataDir = temporaryDataDir();
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  /** The message opening a backend on this Meilisearch fails with. */
  async function openingFails(search: { url: string; apiKey?: string }): Promise<string> {
    const error = await errorOf(() => openBackend({ databaseFile: join(dataDir, 'archive.sqlite'), search: { kind: 'meili', indexPrefix: 'start_problems_', ...search } }, { migrate: true }));
    expect(error).to.be.instanceOf(Error);
    return (error as Error).message;
  }

  it('nothing listening (ECONNREFUSED)', async () => {
    const url = await closedAddress();
    expect(await openingFails({ url })).to.equal(`Nothing listens at MEILI_URL=${url} (ECONNREFUSED): start Meilisearch there, or set MEILI_URL to its address (for example http://meilisearch:7700).`);
  });

  it('a host that does not resolve (ENOTFOUND)', async () => {
    expect(await openingFails({ url: 'http://meilisearch.invalid:7700' })).to.match(/^The host of MEILI_URL=http:\/\/meilisearch\.invalid:7700 does not resolve \((ENOTFOUND|EAI_AGAIN)\): correct the host name in MEILI_URL/);
  });

  it('https asked of a port that speaks plain HTTP', async () => {
    const server = await plainServer(200, 'application/json', '{"status":"available"}');
    try {
      const url = server.url.replace('http:', 'https:');
      expect(await openingFails({ url })).to.match(new RegExp(`^MEILI_URL=${url} asks for TLS \\(https\\), but the server there does not speak it \\(ERR_SSL_[A-Z_]+: it answers plain HTTP\\): write MEILI_URL with http://`));
    } finally {
      await server.close();
    }
  });

  it('another HTTP server: a 404 without a body, or an HTML page', async () => {
    const notFound = await plainServer(404, 'text/plain', '');
    const page = await plainServer(200, 'text/html', '<!doctype html><title>Welcome to nginx!</title>');
    try {
      expect(await openingFails({ url: notFound.url })).to.equal(
        `MEILI_URL=${notFound.url} is not the address of a Meilisearch server: it answered 404 Not Found to GET /indexes/start_problems_specimens_zh/settings, which Meilisearch answers with JSON. Set MEILI_URL to Meilisearch's address (for example http://meilisearch:7700), without a path.`,
      );
      expect(await openingFails({ url: page.url })).to.equal(
        `MEILI_URL=${page.url} is not the address of a Meilisearch server: its answer to GET /indexes/start_problems_specimens_zh/settings is not JSON (GET /health: 200 OK). Set MEILI_URL to Meilisearch's address (for example http://meilisearch:7700), without a path.`,
      );
    } finally {
      await notFound.close();
      await page.close();
    }
  });

  it('npm start stops with that message and exit code 1', async () => {
    const server = await plainServer(404, 'text/plain', '');
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        env: { ...process.env, PORT: String(await freePort()), HOST: '127.0.0.1', ARCHIVE_DATA_DIR: dataDir, ARCHIVE_WORKERS: '0', ARCHIVE_DEMO: '0', ARCHIVE_LOG_LEVEL: 'warn', ARCHIVE_SEARCH: 'meili', MEILI_URL: server.url, MEILI_INDEX_PREFIX: 'start_problems_' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, stderr).to.equal(1);
      expect(stderr.trim()).to.match(new RegExp(`^MEILI_URL=${server.url} is not the address of a Meilisearch server: it answered 404 Not Found`));
    } finally {
      await server.close();
    }
  });
});

const shared = sharedMeili();
if (!shared?.apiKey) {
  console.log('SKIPPED the API key problems against a real Meilisearch: set MEILI_URL and MEILI_API_KEY (a master key) to run them');
} else {
  describe('opening the Meilisearch index names what is wrong with MEILI_API_KEY, never its value', function () {
    this.timeout(60_000);
    let dataDir = '';
    beforeEach(() => {
      dataDir = temporaryDataDir();
    });
    afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

    async function openingFails(apiKey: string | undefined): Promise<string> {
      const { indexPrefix } = uniqueMeiliOptions(shared ?? { url: '' }, 'keys');
      const error = await errorOf(() => openBackend({ databaseFile: join(dataDir, 'archive.sqlite'), search: { kind: 'meili', url: shared?.url ?? '', ...(apiKey ? { apiKey } : {}), ...(indexPrefix ? { indexPrefix } : {}) } }, { migrate: true }));
      expect(error).to.be.instanceOf(Error);
      const message = (error as Error).message;
      if (apiKey) expect(message).not.to.include(apiKey);
      return message;
    }

    it('no key', async () => {
      expect(await openingFails(undefined)).to.equal(
        `Meilisearch at MEILI_URL=${shared.url} asks for an API key, and MEILI_API_KEY is not set (401 missing_authorization_header). Set MEILI_API_KEY to its master key (MEILI_MASTER_KEY where Meilisearch runs) or to its Default Admin API Key (GET /keys with the master key lists the keys).`,
      );
    });

    it('a key that is not one of the server’s', async () => {
      expect(await openingFails('not-a-key-of-this-server-0123456789')).to.match(new RegExp(`^MEILI_API_KEY is not a key of Meilisearch at MEILI_URL=${shared.url} \\(403 invalid_api_key\\): a key of another server`));
    });

    it('a key of the server that may only search (the Default Search API Key)', async () => {
      const { results } = await meiliClient(shared).getKeys({ limit: 100 });
      const searchKey = results.find((key) => key.actions.length === 1 && key.actions[0] === 'search' && key.indexes.includes('*'));
      expect(searchKey, 'the server has a search-only key').to.not.equal(undefined);
      expect(await openingFails(searchKey?.key)).to.match(new RegExp(`^MEILI_API_KEY is a key of Meilisearch at MEILI_URL=${shared.url}, but not one that may do what the archive does \\(403 invalid_api_key\\).*Default Search API Key`));
    });
  });
}
