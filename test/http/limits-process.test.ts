import { expect } from 'chai';
import { connect } from 'node:net';
import { rmSync } from 'node:fs';
import { getOnNewConnection, startServerProcess } from '../helpers/server-process.ts';
import type { ServerProcess } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';

/** Writes raw bytes (a latin1 string, one character a byte) on a socket and collects what the server answers until it closes the connection. */
function rawExchange(port: number, bytes: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${timeoutMs} ms; got: ${answer.slice(0, 200)}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', () => undefined);
    socket.write(Buffer.from(bytes, 'latin1'));
  });
}

describe('limits of the server process', function () {
  this.timeout(60_000);
  let server: ServerProcess | undefined;
  let dataDir = '';
  beforeEach(() => {
    dataDir = temporaryDataDir();
  });
  afterEach(async () => {
    await server?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps one count per client across cluster workers', async () => {
    server = await startServerProcess(dataDir, { ARCHIVE_WORKERS: '2', ARCHIVE_RATE_LIMIT_READS: '10' });
    // An MCP batch of four calls counts four, whichever worker takes it.
    const calls = [1, 2, 3, 4].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_specimens', arguments: { q: 'pelican' } } }));
    const batch = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Connection: 'close' }, body: JSON.stringify(calls) });
    expect(batch.status).to.equal(200);
    expect(batch.headers.get('ratelimit')).to.match(/^"client";r=6;t=\d+$/);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) statuses.push((await getOnNewConnection(`${server.url}/api/v1/specimens?lang=en`)).status);
    expect(statuses.filter((status) => status === 200)).to.have.length(6);
    expect(statuses.slice(6)).to.deep.equal([429, 429, 429, 429, 429, 429]);
    expect((await getOnNewConnection(`${server.url}/healthz`)).status).to.equal(200);
  });

  it('answers 408 to a client that does not finish its request in time, 431 to oversized headers and 400 to a request that is not HTTP, each as problem+json', async () => {
    server = await startServerProcess(dataDir, { ARCHIVE_REQUEST_TIMEOUT_MS: '1000' });
    /** The status line and the problem of a raw answer. */
    const answer = (raw: string): { statusLine: string; contentType: string; problem: { type: string; status: number; detail: string } } => {
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      const contentType = /^content-type: (.*)$/im.exec(head)?.[1] ?? '';
      return { statusLine: head.split('\r\n')[0] ?? '', contentType, problem: JSON.parse(Buffer.from(body, 'latin1').toString('utf8')) as { type: string; status: number; detail: string } };
    };
    const started = Date.now();
    const slowRaw = await rawExchange(server.port, 'GET /api/v1/specimens?lang=en HTTP/1.1\r\nHost: 127.0.0.1\r\n', 10_000);
    // Written on the socket by hand, with the fields every answer has.
    expect(slowRaw).to.match(/\r\ndate: \w{3}, \d\d \w{3} \d{4} /i).and.match(/\r\naccess-control-allow-origin: \*\r\n/i);
    const slow = answer(slowRaw);
    expect(slow.statusLine).to.match(/^HTTP\/1\.1 408 /);
    expect(slow.problem).to.include({ type: `${server.url}/problems/request-timeout`, status: 408 });
    expect(slow.problem.detail).to.equal('The request did not arrive in time: its headers must come within 1 s, the whole request within 1 s. Send it again, whole and promptly.');
    expect(Date.now() - started).to.be.below(8000);
    const longUrl = answer(await rawExchange(server.port, `GET /api/v1/specimens?q=${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, 10_000));
    expect(longUrl.statusLine).to.match(/^HTTP\/1\.1 414 /);
    expect(longUrl.contentType).to.equal('application/problem+json');
    expect(longUrl.problem).to.include({ type: `${server.url}/problems/uri-too-long`, status: 414 });
    const oversized = answer(await rawExchange(server.port, `GET /api/v1/specimens HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`, 10_000));
    expect(oversized.statusLine).to.match(/^HTTP\/1\.1 431 /);
    expect(oversized.problem).to.include({ type: `${server.url}/problems/request-header-too-large`, status: 431 });
    // Chinese written into the URL unencoded, as a hand-written client might send it.
    const unencoded = answer(await rawExchange(server.port, Buffer.from('GET /api/v1/specimens?q=鹈鹕 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n').toString('latin1'), 10_000));
    expect(unencoded.statusLine).to.match(/^HTTP\/1\.1 400 /);
    expect(unencoded.problem).to.include({ type: `${server.url}/problems/malformed-request`, status: 400 });
    expect(unencoded.problem.detail).to.include('q=%E9%B9%88%E9%B9%95');
    // A method HTTP does not define: 501, where a method it defines that the address does not take is a 405.
    const unknownMethod = answer(await rawExchange(server.port, 'FOO /api/v1/specimens HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 10_000));
    expect(unknownMethod.statusLine).to.match(/^HTTP\/1\.1 501 /);
    expect(unknownMethod.problem).to.include({ type: `${server.url}/problems/method-not-implemented`, status: 501 });
    // One Host field in HTTP/1.1 (RFC 9112 §3.2): none, or two, is a 400 problem; HTTP/1.0 may leave it out.
    // The connection is closed after, as after every malformed-request answer: rawExchange waits for the close.
    for (const head of ['GET /healthz HTTP/1.1\r\n', 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n']) {
      const hosts = answer(await rawExchange(server.port, `${head}\r\n`, 10_000));
      expect(hosts.statusLine, head).to.match(/^HTTP\/1\.1 400 /);
      expect(hosts.problem, head).to.include({ type: `${server.url}/problems/malformed-request`, status: 400 });
    }
    expect(await rawExchange(server.port, 'GET /healthz HTTP/1.0\r\n\r\n', 10_000)).to.match(/^HTTP\/1\.1 200 /);
    const expectation = answer(await rawExchange(server.port, 'GET /api/v1/specimens HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: foo\r\n\r\n', 10_000));
    expect(expectation.statusLine).to.match(/^HTTP\/1\.1 417 /);
    expect(expectation.problem).to.include({ type: `${server.url}/problems/expectation-failed`, status: 417 });
    expect((await fetch(`${server.url}/healthz`)).status).to.equal(200);
  });

  it('sends 100 Continue when the body is read, so that a request refused from its headers never sends its body', async () => {
    server = await startServerProcess(dataDir);
    const statusLines = (raw: string) => raw.match(/HTTP\/1\.1 \d{3}/g);
    const head = (path: string, length: number, more = '') => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n${more}\r\n`;
    // Refused from the headers: no token (401), a body longer than the address takes (413). The client, waiting for 100, sends nothing.
    expect(statusLines(await rawExchange(server.port, head('/api/v1/ingest', 100), 10_000))).to.deep.equal(['HTTP/1.1 401']);
    expect(statusLines(await rawExchange(server.port, head('/mcp', 10_000_000), 10_000))).to.deep.equal(['HTTP/1.1 413']);
    // Read: 100 Continue, then the answer.
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'continue-test', version: '1' } } });
    const read = await rawExchange(server.port, `${head('/mcp', Buffer.byteLength(body), 'Connection: close\r\n')}${body}`, 10_000);
    expect(statusLines(read), read.slice(0, 300)).to.deep.equal(['HTTP/1.1 100', 'HTTP/1.1 200']);
  });

  it('closes the connection after answering a request before its body arrived, so that a body that never comes gets no second answer', async () => {
    server = await startServerProcess(dataDir, { ARCHIVE_REQUEST_TIMEOUT_MS: '1000' });
    // No token: refused (401) from the headers, with 90 of the 100 bytes announced never sent.
    const raw = await rawExchange(server.port, `POST /api/v1/ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":"${'x'.repeat(4)}`, 10_000);
    expect(raw.match(/HTTP\/1\.1 \d{3}/g), raw.slice(0, 300)).to.deep.equal(['HTTP/1.1 401']);
    expect(raw).to.match(/\r\nconnection: close\r\n/i);
  });
});
