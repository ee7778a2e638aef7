import { expect } from 'chai';
import Koa from 'koa';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { securityHeaders, STRICT_TRANSPORT } from '../../src/http/middlewares/security-headers.ts';

/** The headers of one answer of an app that says "ok" behind securityHeaders(baseUrl). */
async function headersBehind(baseUrl: string): Promise<Headers> {
  const app = new Koa();
  app.use(securityHeaders(baseUrl));
  app.use((ctx) => {
    ctx.body = 'ok';
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return (await fetch(`http://127.0.0.1:${port}/`)).headers;
  } finally {
    server.close();
  }
}

describe('security headers', () => {
  it('sends HSTS when the base URL is https, and not when it is http', async () => {
    expect((await headersBehind('https://archive.example')).get('strict-transport-security')).to.equal(STRICT_TRANSPORT);
    expect((await headersBehind('http://127.0.0.1:8080')).get('strict-transport-security')).to.equal(null);
    expect((await headersBehind('http://127.0.0.1:8080')).get('x-content-type-options')).to.equal('nosniff');
  });
});
