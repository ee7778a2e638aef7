import { expect } from 'chai';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AddressPolicy } from '../../../indexer/media/address-policy.ts';
import { inspectImage } from '../../../indexer/media/inspect-image.ts';
import { ImageFetchError, fetchImage } from '../../../indexer/media/safe-fetch.ts';
import type { FetchImageOptions, FetchedImage, Resolver } from '../../../indexer/media/safe-fetch.ts';
import { sampleImages } from './fixtures/images.ts';
import type { SampleImages } from './fixtures/images.ts';

interface TestHost {
  server: Server;
  port: number;
  base: string;
  /** Requests seen, by path. */
  hits: Map<string, number>;
  /** TCP connections accepted so far. */
  connections(): number;
  lastHeaders?: IncomingHttpHeaders;
}

async function startHost(images: SampleImages): Promise<TestHost> {
  let connections = 0;
  const host = {} as TestHost;
  host.hits = new Map();
  const files: Record<string, [string, Buffer]> = {
    '/drawing.png': ['image/png', images.png],
    '/drawing.jpg': ['image/jpeg', images.jpeg],
    '/blank.png': ['image/png', images.blankPng],
    '/drawing.svg': ['image/svg+xml', images.svg],
    '/fake.png': ['image/png', images.html],
    '/huge.png': ['image/png', images.bombPng],
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://test');
    host.hits.set(url.pathname, (host.hits.get(url.pathname) ?? 0) + 1);
    host.lastHeaders = request.headers;
    const file = files[url.pathname];
    if (file) {
      response.writeHead(200, { 'content-type': file[0], 'content-length': file[1].length, 'set-cookie': 'session=secret' });
      response.end(file[1]);
      return;
    }
    const redirect = /^\/redirect\/(\d+)$/.exec(url.pathname);
    if (redirect) {
      const left = Number(redirect[1]);
      response.writeHead(302, { location: left > 1 ? `/redirect/${left - 1}` : `${host.base}/drawing.png` });
      response.end();
      return;
    }
    switch (url.pathname) {
      case '/redirect-to':
        response.writeHead(301, { location: url.searchParams.get('target') ?? '/' });
        response.end();
        return;
      case '/redirect-without-location':
        response.writeHead(302);
        response.end();
        return;
      case '/slow':
        setTimeout(() => response.end('late'), 3000).unref();
        return;
      case '/slow-body':
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': 1000 });
        response.write(images.png.subarray(0, 100));
        return;
      case '/big':
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': 500_000 });
        response.end(Buffer.alloc(500_000));
        return;
      case '/big-chunked':
        response.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < 10; i++) response.write(Buffer.alloc(50_000));
        response.end();
        return;
      case '/reset':
        request.socket.destroy();
        return;
      default: {
        const status = Number(url.pathname.slice(1));
        response.writeHead(status >= 400 && status < 600 ? status : 404);
        response.end('no');
      }
    }
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host.server = server;
  host.port = (server.address() as AddressInfo).port;
  host.base = `http://127.0.0.1:${host.port}`;
  host.connections = () => connections;
  return host;
}

async function failure(promise: Promise<FetchedImage>): Promise<ImageFetchError> {
  try {
    const result = await promise;
    throw new Error(`expected a failure, fetched ${result.bytes.length} bytes from ${result.finalUrl}`);
  } catch (error) {
    if (error instanceof ImageFetchError) return error;
    throw error;
  }
}

describe('SSRF-safe image fetching', () => {
  let images: SampleImages;
  let host: TestHost;
  const open: FetchImageOptions = { allowPrivate: true, timeoutMs: 2000 };
  const closed: FetchImageOptions = { allowPrivate: false, timeoutMs: 2000 };

  before(async () => {
    images = await sampleImages();
    host = await startHost(images);
  });
  after(async () => {
    host.server.closeAllConnections();
    await new Promise((resolve) => host.server.close(resolve));
  });

  describe('with private addresses allowed (the archive’s own tests)', () => {
    it('fetches a PNG and a JPEG that then inspect as good previews', async () => {
      const png = await fetchImage(`${host.base}/drawing.png`, open);
      expect(png.bytes.equals(images.png)).to.equal(true);
      expect(png).to.include({ finalUrl: `${host.base}/drawing.png`, contentType: 'image/png', redirects: 0 });
      expect(await inspectImage(png.bytes)).to.include({ ok: true, format: 'png', blank: false });
      const jpeg = await fetchImage(`${host.base}/drawing.jpg`, open);
      expect(await inspectImage(jpeg.bytes)).to.include({ ok: true, format: 'jpeg', blank: false });
    });

    it('sends a User-Agent, no cookie and no credentials, and refuses URLs that carry credentials', async () => {
      await fetchImage(`${host.base}/drawing.png`, { ...open, userAgent: 'archive-test/1' });
      expect(host.lastHeaders?.['user-agent']).to.equal('archive-test/1');
      expect(host.lastHeaders).to.not.have.any.keys('cookie', 'authorization', 'proxy-authorization');
      await fetchImage(`${host.base}/drawing.png`, open);
      expect(host.lastHeaders).to.not.have.any.keys('cookie');
      const before = host.connections();
      const error = await failure(fetchImage(`http://user:secret@127.0.0.1:${host.port}/drawing.png`, open));
      expect(error).to.include({ code: 'credentials', transient: false });
      expect(error.url).to.not.include('secret');
      expect(host.connections()).to.equal(before);
    });

    it('fetches the bad images as bytes, which inspection then refuses with clear reasons', async () => {
      const blank = await inspectImage((await fetchImage(`${host.base}/blank.png`, open)).bytes);
      expect(blank).to.include({ ok: true, blank: true });
      const svg = await inspectImage((await fetchImage(`${host.base}/drawing.svg`, open)).bytes);
      expect(svg).to.deep.include({ ok: false, failure: 'not-raster' });
      expect(svg.ok ? '' : svg.reason).to.match(/SVG/);
      const fake = await fetchImage(`${host.base}/fake.png`, open);
      expect(fake.contentType).to.equal('image/png');
      const html = await inspectImage(fake.bytes);
      expect(html.ok ? '' : html.reason).to.match(/HTML/);
      const huge = await inspectImage((await fetchImage(`${host.base}/huge.png`, open)).bytes);
      expect(huge).to.deep.include({ ok: false, failure: 'too-many-pixels' });
    });

    it('calls 404 permanent and 500, 503 and 429 transient', async () => {
      expect(await failure(fetchImage(`${host.base}/404`, open))).to.include({ code: 'http-status', status: 404, transient: false, reason: 'HTTP 404 Not Found' });
      expect(await failure(fetchImage(`${host.base}/410`, open))).to.include({ status: 410, transient: false });
      expect(await failure(fetchImage(`${host.base}/500`, open))).to.include({ code: 'http-status', status: 500, transient: true });
      expect(await failure(fetchImage(`${host.base}/503`, open))).to.include({ status: 503, transient: true });
      expect(await failure(fetchImage(`${host.base}/429`, open))).to.include({ status: 429, transient: true });
    });

    it('times out a slow answer and a stalled body as transient, within the time limit', async () => {
      for (const path of ['/slow', '/slow-body']) {
        const started = performance.now();
        const error = await failure(fetchImage(`${host.base}${path}`, { ...open, timeoutMs: 300 }));
        expect(error, path).to.include({ code: 'timeout', transient: true });
        expect(performance.now() - started, path).to.be.within(250, 1500);
      }
    });

    it('refuses bodies over the byte limit, announced or streamed, as permanent', async () => {
      const announced = await failure(fetchImage(`${host.base}/big`, { ...open, maxBytes: 100_000 }));
      expect(announced).to.include({ code: 'too-large', transient: false });
      expect(announced.reason).to.match(/announces 500000 bytes/);
      const streamed = await failure(fetchImage(`${host.base}/big-chunked`, { ...open, maxBytes: 100_000 }));
      expect(streamed).to.include({ code: 'too-large', transient: false });
      expect((await fetchImage(`${host.base}/big-chunked`, { ...open, maxBytes: 500_000 })).bytes.length).to.equal(500_000);
    });

    it('calls refused and reset connections transient', async () => {
      const unused = createServer();
      await new Promise<void>((resolve) => unused.listen(0, '127.0.0.1', resolve));
      const port = (unused.address() as AddressInfo).port;
      await new Promise((resolve) => unused.close(resolve));
      const refused = await failure(fetchImage(`http://127.0.0.1:${port}/drawing.png`, open));
      expect(refused).to.include({ code: 'connection', transient: true });
      expect(refused.reason).to.match(/ECONNREFUSED/);
      expect(await failure(fetchImage(`${host.base}/reset`, open))).to.include({ code: 'connection', transient: true });
    });

    it('follows up to 3 redirects and refuses a 4th, and a redirect without a target', async () => {
      const three = await fetchImage(`${host.base}/redirect/3`, open);
      expect(three).to.include({ finalUrl: `${host.base}/drawing.png`, redirects: 3 });
      expect(three.bytes.equals(images.png)).to.equal(true);
      const four = await failure(fetchImage(`${host.base}/redirect/4`, open));
      expect(four).to.include({ code: 'too-many-redirects', transient: false });
      expect(await failure(fetchImage(`${host.base}/redirect/1`, { ...open, maxRedirects: 0 }))).to.include({ code: 'too-many-redirects' });
      expect(await failure(fetchImage(`${host.base}/redirect-without-location`, open))).to.include({ code: 'bad-redirect', transient: false });
    });

    it('refuses a redirect to a file: or data: URL', async () => {
      for (const target of ['file:///etc/passwd', 'data:image/png;base64,iVBORw0KGgo=']) {
        const error = await failure(fetchImage(`${host.base}/redirect-to?target=${encodeURIComponent(target)}`, open));
        expect(error, target).to.include({ code: 'bad-scheme', transient: false });
      }
    });

    it('stops when the caller cancels, as a transient failure', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      expect(await failure(fetchImage(`${host.base}/slow`, { ...open, signal: controller.signal }))).to.include({ code: 'aborted', transient: true });
    });
  });

  describe('with private addresses refused (production)', () => {
    it('refuses every way of writing a loopback address, without connecting', async () => {
      const port = host.port;
      const forms = [`127.0.0.1:${port}`, `2130706433:${port}`, `0x7f000001:${port}`, `0177.0.0.1:${port}`, `127.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `[::ffff:127.0.0.1]:${port}`, `[::ffff:7f00:1]:${port}`, `0.0.0.0:${port}`, `[::]:${port}`];
      const before = host.connections();
      for (const form of forms) {
        const error = await failure(fetchImage(`http://${form}/drawing.png`, closed));
        expect(error, form).to.include({ code: 'blocked-address', transient: false });
        expect(error.reason, form).to.match(/^refused to connect to \S+, a (loopback|unspecified) address/);
      }
      expect(await failure(fetchImage(`https://[::ffff:127.0.0.1]:${port}/drawing.png`, closed))).to.include({ code: 'blocked-address' });
      expect(host.connections()).to.equal(before);
      expect(host.hits.get('/drawing.png') ?? 0).to.be.above(0);
    });

    it('refuses file:, data:, ftp: and javascript: URLs and non-URLs, without connecting', async () => {
      const before = host.connections();
      for (const url of ['file:///etc/passwd', 'data:image/png;base64,iVBORw0KGgo=', 'ftp://127.0.0.1/x.png', 'javascript:alert(1)', 'gopher://127.0.0.1:70/']) {
        expect(await failure(fetchImage(url, closed)), url).to.include({ code: 'bad-scheme', transient: false });
      }
      expect(await failure(fetchImage('not a url', closed))).to.include({ code: 'invalid-url', transient: false });
      expect(await failure(fetchImage('/drawing.png', closed))).to.include({ code: 'invalid-url' });
      expect(host.connections()).to.equal(before);
    });

    it('re-checks every redirect hop: a permitted first hop that redirects to loopback is stopped there', async () => {
      // The test cannot reach a public host, so 127.0.0.1 stands in for one: this policy lets exactly that
      // address through and judges every other address as production does.
      const onlyThisOne: AddressPolicy = (address, category) => address === '127.0.0.1' || category === 'public';
      const resolve: Resolver = async (name) => (name === 'public.test' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '127.0.0.2', family: 4 }]);
      const options: FetchImageOptions = { ...closed, addressPolicy: onlyThisOne, resolve };
      expect((await fetchImage(`http://public.test:${host.port}/drawing.png`, options)).bytes.equals(images.png)).to.equal(true);
      const targets = [`http://localhost:${host.port}/drawing.jpg`, `http://[::1]:${host.port}/drawing.jpg`, `http://0x7f000002:${host.port}/drawing.jpg`, `http://[::ffff:7f00:2]:${host.port}/drawing.jpg`];
      for (const target of targets) {
        const jpegHits = host.hits.get('/drawing.jpg') ?? 0;
        const redirects = host.hits.get('/redirect-to') ?? 0;
        const error = await failure(fetchImage(`http://public.test:${host.port}/redirect-to?target=${encodeURIComponent(target)}`, options));
        expect(error, target).to.include({ code: 'blocked-address', transient: false, url: target.replace('0x7f000002', '127.0.0.2') });
        expect(host.hits.get('/redirect-to'), target).to.equal(redirects + 1);
        expect(host.hits.get('/drawing.jpg') ?? 0, target).to.equal(jpegHits);
      }
    });

    it('refuses a name when any one of its addresses is not allowed', async () => {
      const policy: AddressPolicy = (address, category) => address === '127.0.0.1' || category === 'public';
      const resolve: Resolver = async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
      const before = host.connections();
      const error = await failure(fetchImage(`http://mixed.test:${host.port}/drawing.png`, { ...closed, addressPolicy: policy, resolve }));
      expect(error).to.include({ code: 'blocked-address' });
      expect(error.reason).to.equal('refused to connect to ::1, a loopback address (mixed.test resolves to it)');
      expect(host.connections()).to.equal(before);
    });

    it('connects to the address it checked, whatever the name resolves to afterwards (no DNS rebinding)', async () => {
      let calls = 0;
      const rebinding: Resolver = async () => {
        calls += 1;
        return [{ address: calls === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
      };
      const policy: AddressPolicy = (address) => address === '127.0.0.1';
      // rebind.test resolves nowhere outside this resolver: the connection can only have used the pinned address.
      const fetched = await fetchImage(`http://rebind.test:${host.port}/drawing.png`, { ...closed, addressPolicy: policy, resolve: rebinding });
      expect(fetched.bytes.equals(images.png)).to.equal(true);
      expect(calls).to.equal(1);
      expect(host.lastHeaders?.host).to.equal(`rebind.test:${host.port}`);
    });

    it('reports a name that does not resolve as a permanent DNS failure', async () => {
      const resolve: Resolver = async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
      };
      expect(await failure(fetchImage('http://nowhere.test/x.png', { ...closed, resolve }))).to.include({ code: 'dns', transient: false });
      const flaky: Resolver = async () => {
        throw Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' });
      };
      expect(await failure(fetchImage('http://flaky.test/x.png', { ...closed, resolve: flaky }))).to.include({ code: 'dns', transient: true });
    });
  });
});
