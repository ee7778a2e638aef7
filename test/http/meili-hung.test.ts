/**
 * A Meilisearch of the test's own (MEILI_BIN) that hangs (SIGSTOP: its port accepts connections
 * and nothing answers): /readyz says not ready within READY_TIMEOUT_MS and a search answers 503
 * within SEARCH_TIMEOUT_MS, rather than both waiting the 30 s every request used to wait; both
 * answer again once it runs on.
 */
import { expect } from 'chai';
import { READY_TIMEOUT_MS, SEARCH_TIMEOUT_MS } from '../../src/search/meili/settings.ts';
import { eventually } from '../helpers/backend.ts';
import { makeRecord } from '../helpers/factories.ts';
import { meiliBinary, startMeiliProcess } from '../helpers/meili.ts';
import type { MeiliProcess } from '../helpers/meili.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

const binary = meiliBinary();

if (!binary) {
  console.log('SKIPPED Meilisearch hang suite: set MEILI_BIN to a meilisearch binary to run it');
} else {
  describe('a Meilisearch that hangs', function () {
    this.timeout(120_000);
    let meili: MeiliProcess;
    let server: TestServer;

    before(async () => {
      meili = await startMeiliProcess(binary);
      server = await startTestServer({
        records: [makeRecord({ title: { zh: '挂起的灯笼', en: 'A hanging lantern' } })],
        search: { kind: 'meili', url: meili.url, apiKey: meili.apiKey, indexPrefix: 'hung_' },
      });
    });
    after(async () => {
      meili?.resume();
      await server?.close();
      await meili?.destroy();
    });

    /** How long a request took, with its status and Retry-After. */
    async function timed(path: string): Promise<{ status: number; retryAfter: string | null; ms: number }> {
      const started = performance.now();
      const response = await server.get(path);
      await response.arrayBuffer();
      return { status: response.status, retryAfter: response.headers.get('retry-after'), ms: performance.now() - started };
    }

    it('is not ready within READY_TIMEOUT_MS, and a search answers 503 within SEARCH_TIMEOUT_MS', async () => {
      expect((await timed('/readyz')).status).to.equal(200);
      await meili.pause();
      try {
        const ready = await timed('/readyz');
        expect([ready.status, ready.retryAfter]).to.deep.equal([503, '5']);
        expect(ready.ms).to.be.within(READY_TIMEOUT_MS - 100, READY_TIMEOUT_MS + 1000);
        const search = await timed('/api/v1/specimens?q=lantern&lang=en');
        expect([search.status, search.retryAfter]).to.deep.equal([503, '5']);
        expect(search.ms).to.be.within(SEARCH_TIMEOUT_MS - 100, SEARCH_TIMEOUT_MS + 2000);
      } finally {
        meili.resume();
      }
      await eventually(async () => (await timed('/readyz')).status === 200, 30_000, 'not ready again');
      const found = (await (await server.get('/api/v1/specimens?q=lantern&lang=en')).json()) as { total: number };
      expect(found.total).to.equal(1);
    });
  });
}
