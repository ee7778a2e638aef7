import { expect } from 'chai';
import { isGenericUserAgent } from '../../src/http/middlewares/user-agent.ts';
import { startTestServer } from '../helpers/server.ts';

describe('User-Agent etiquette (ARCHIVE_REJECT_GENERIC_UA=1)', () => {
  it('tells library defaults from application-specific agents', () => {
    for (const agent of ['', 'curl/8.5.0', 'python-requests/2.31.0', 'Go-http-client/1.1', 'node', 'axios/1.6.0', 'Wget/1.21', 'Java/17.0.2']) expect(isGenericUserAgent(agent), agent).to.equal(true);
    for (const agent of ['my-research-bot/1.2 (mailto:me@example.org)', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0', 'lin-bot/1.0']) expect(isGenericUserAgent(agent), agent).to.equal(false);
  });

  it('refuses generic agents with a 403 that says what to send, and lets others and health probes through', async () => {
    const server = await startTestServer({ demo: true, rejectGenericUserAgents: true });
    try {
      const refused = await server.get('/api/v1/specimens?limit=1', { headers: { 'User-Agent': 'curl/8.5.0' } });
      expect(refused.status).to.equal(403);
      expect(refused.headers.get('content-type')).to.match(/problem\+json/);
      expect(((await refused.json()) as { detail: string }).detail).to.match(/application-specific User-Agent/);
      expect((await server.get('/api/v1/specimens?limit=1', { headers: { 'User-Agent': 'my-research-bot/1.2 (mailto:me@example.org)' } })).status).to.equal(200);
      expect((await server.get('/healthz', { headers: { 'User-Agent': 'curl/8.5.0' } })).status).to.equal(200);
    } finally {
      await server.close();
    }
  });

  it('is off by default', async () => {
    const server = await startTestServer({ demo: true });
    try {
      expect((await server.get('/api/v1/specimens?limit=1', { headers: { 'User-Agent': 'curl/8.5.0' } })).status).to.equal(200);
    } finally {
      await server.close();
    }
  });
});
