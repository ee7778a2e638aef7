/**
 * A Meilisearch of the test's own (MEILI_BIN), killed while the publisher publishes and the index
 * sync writes: reads answer 503 with Retry-After while it is down, the publisher goes on (it writes
 * only the store), and once Meilisearch is back the sync catches up until the index holds exactly
 * what the store holds.
 */
import { expect } from 'chai';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { FORMATS, LANGS } from '../../src/domain/record.ts';
import { eventually } from '../helpers/backend.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { meiliBinary, startMeiliProcess } from '../helpers/meili.ts';
import type { MeiliProcess } from '../helpers/meili.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

const FINAL_STATUSES = ['published', 'duplicate', 'needs_review'];
const binary = meiliBinary();

if (!binary) {
  console.log('SKIPPED Meilisearch restart suite: set MEILI_BIN to a meilisearch binary to run it');
} else {
  describe('the index sync across a Meilisearch that is killed and started again', function () {
    this.timeout(180_000);
    const works = 30;
    const images = new ImageServer();
    const secret = generateSecret();
    let meili: MeiliProcess;
    let server: TestServer;

    before(async () => {
      meili = await startMeiliProcess(binary);
      await images.start();
      for (let work = 1; work <= works; work += 1) images.files.set(`/restart-${work}.png`, { type: 'image/png', body: await lineDrawingPng(9100 + work) });
      server = await startTestServer({
        search: { kind: 'meili', url: meili.url, apiKey: meili.apiKey, indexPrefix: 'restart_' },
        publisher: { uploadHosts: [images.host], allowPrivateMedia: true, maxAttempts: 3, retryDelayMs: 50 },
      });
      await server.backend.tokens.createToken('restart-bot', ['ingest'], secretSha256(secret));
    });
    after(async () => {
      await server?.close();
      await images.stop();
      await meili?.destroy();
    });

    const authorized = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' };
    async function settled(ids: readonly string[]): Promise<number> {
      let count = 0;
      for (const id of ids) {
        const { body } = await getJson<{ status: string }>(server, `/api/v1/ingest/${id}`, { headers: authorized });
        if (FINAL_STATUSES.includes(body.status)) count += 1;
      }
      return count;
    }
    const total = async (query: string): Promise<number> => (await getJson<{ total: number }>(server, query)).body.total;
    /** Records the index of each language holds (the smaller count), or -1 while Meilisearch does not answer. */
    const indexed = async (): Promise<number> => {
      const totals = LANGS.map((lang) => server.backend.search.search({ lang, filters: {}, order: 'newest', offset: 0, limit: 1 }).then((hits) => hits.total));
      return Math.min(...(await Promise.all(totals)));
    };
    const indexedOrDown = async (): Promise<number> => indexed().catch(() => -1);

    it('answers 503 while it is down, and holds exactly the store once it is back', async () => {
      const submissions = Array.from({ length: works }, (_, i) => ({
        sourceUrl: `https://github.com/restart-demo/work-${i + 1}`,
        date: `2025-03-${String((i % 28) + 1).padStart(2, '0')}`,
        model: `Restart-Model-${i % 3}`,
        author: 'Restart Demo',
        format: FORMATS[i % FORMATS.length],
        title: { zh: `重启作品${i + 1}`, en: `Restartable lantern ${i + 1}` },
        notes: { zh: '测试。', en: 'Test.' },
        media: [images.url(`/restart-${i + 1}.png`)],
      }));
      const response = await server.get('/api/v1/ingest/batch', { method: 'POST', headers: authorized, body: JSON.stringify({ submissions }) });
      expect(response.status).to.equal(202);
      const ids = ((await response.json()) as { items: { submissionId: string }[] }).items.map((item) => item.submissionId);

      // Kill Meilisearch (no clean shutdown) once publishing is under way and the sync has written some of it.
      await eventually(async () => (await settled(ids)) >= 5 && (await indexedOrDown()) > 0, 60_000, 'nothing was published and indexed');
      await meili.stop('SIGKILL');
      const down = await server.get('/api/v1/specimens?q=lantern&lang=en');
      expect([down.status, down.headers.get('retry-after')]).to.deep.equal([503, '5']);
      expect((await server.get('/readyz')).status).to.equal(503);

      // The publisher does not need the search engine: every submission reaches a final status meanwhile.
      await eventually(async () => (await settled(ids)) === works, 90_000, 'the publisher stopped while Meilisearch was down');
      const published = (await server.backend.store.catalogState()).total;
      // A gallery record per work, and a timeline record for each model's earliest work.
      expect(published).to.equal(works + 3);

      await meili.restart();
      await eventually(async () => (await indexedOrDown()) === published, 60_000, 'the index sync never caught up');
      await eventually(async () => (await server.get('/api/v1/specimens?q=lantern&lang=en')).status === 200, 10_000, 'reads did not come back');
      expect(await total('/api/v1/specimens?lang=en&limit=1')).to.equal(published);
      expect(await total('/api/v1/specimens?q=lantern&lang=en&kind=gallery')).to.equal(works);
      expect(await total(`/api/v1/specimens?q=${encodeURIComponent('重启作品')}&kind=gallery`)).to.equal(works);
      for (const format of FORMATS) expect(await total(`/api/v1/specimens?format=${format}&lang=en&kind=gallery`), format).to.equal(works / FORMATS.length);
      expect(await total('/api/v1/timeline?lang=en')).to.equal(3);
    });
  });
}
