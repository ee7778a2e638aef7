/**
 * Meilisearch for tests: the server named by MEILI_URL (shared, so every test works under an
 * index prefix of its own), a Meilisearch process of the test's own started from MEILI_BIN (for
 * tests that stop and restart the engine), and a small reverse proxy to put between the archive
 * and either of them.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MeiliSearchOptions } from '../../src/search/meili/meili-search.ts';
import { meiliClient } from '../../src/search/meili/meili-search.ts';
import { freePort } from './server-process.ts';

/** The shared server from MEILI_URL (and MEILI_API_KEY), or undefined when none is given. */
export function sharedMeili(): { url: string; apiKey?: string } | undefined {
  const url = process.env.MEILI_URL?.replace(/\/+$/, '');
  if (!url) return undefined;
  return { url, ...(process.env.MEILI_API_KEY ? { apiKey: process.env.MEILI_API_KEY } : {}) };
}

/** Options for indexes of this test alone on a server: a prefix nobody else uses. */
export function uniqueMeiliOptions(server: { url: string; apiKey?: string }, kind = 'test'): MeiliSearchOptions {
  return { ...server, indexPrefix: `${kind}_${randomBytes(6).toString('hex')}_` };
}

/**
 * Enqueues the deletion of every index under the prefix and returns without waiting: the server
 * works through its one task queue in order, so the deletion follows every write the test made,
 * and a test never waits for its clean-up behind other suites' writes.
 */
export async function dropMeiliIndexes(options: MeiliSearchOptions): Promise<void> {
  const prefix = options.indexPrefix;
  if (!prefix) throw new Error('refusing to drop indexes without a prefix');
  const client = meiliClient(options);
  const { results } = await client.getRawIndexes({ limit: 1000 });
  await Promise.all(results.filter((index) => index.uid.startsWith(prefix)).map((index) => client.deleteIndex(index.uid)));
}

/** A Meilisearch process of the test's own, on a free loopback port over a temporary database. */
export interface MeiliProcess {
  url: string;
  apiKey: string;
  /** Stops the process (SIGKILL by default: a crash, tasks in flight) and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and database. */
  restart(): Promise<void>;
  /** Freezes the process (SIGSTOP) and waits until it is stopped: its port accepts connections and nothing answers, a hung engine. */
  pause(): Promise<void>;
  /** Lets a paused process run on (SIGCONT). */
  resume(): void;
  /** Stops it and deletes its database. */
  destroy(): Promise<void>;
  output(): string;
}

/** The binary that tests which stop and restart Meilisearch run (MEILI_BIN), if given. */
export function meiliBinary(): string | undefined {
  return process.env.MEILI_BIN || undefined;
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`meilisearch exited with ${child.exitCode}:\n${output()}`);
    const healthy = await fetch(`${url}/health`).then((response) => response.ok, () => false);
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`meilisearch did not become healthy:\n${output()}`);
}

/**
 * Starts MEILI_BIN with a master key and analytics off, and waits until /health answers. Its
 * indexing memory is bounded: Meilisearch sizes a buffer it clears for every task batch from it
 * (by default two thirds of the machine's RAM), which costs about a second per batch on a large
 * machine whatever the batch holds (docs/deploy.md).
 */
export async function startMeiliProcess(binary: string): Promise<MeiliProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const apiKey = randomBytes(24).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'archive-meili-'));
  let log = '';
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    const started = spawn(binary, ['--http-addr', `127.0.0.1:${port}`, '--db-path', join(dataDir, 'data.ms'), '--dump-dir', join(dataDir, 'dumps'), '--master-key', apiKey, '--env', 'development', '--log-level', 'WARN', '--max-indexing-memory', '1GiB'], {
      env: { ...process.env, MEILI_NO_ANALYTICS: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child = started;
    await waitForHealth(url, started, () => log);
  };
  const stop = async (signal: NodeJS.Signals = 'SIGKILL'): Promise<void> => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(signal);
    await exited;
  };
  await launch();
  return {
    url,
    apiKey,
    stop,
    restart: launch,
    pause: async () => {
      const pid = child?.pid;
      if (pid === undefined) return;
      child?.kill('SIGSTOP');
      // Each thread stops when it next runs; on Linux each thread's state says when all have.
      const stopped = (): boolean => {
        try {
          return readdirSync(`/proc/${pid}/task`).every((task) => /^\d+ \(.*\) T /.test(readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8')));
        } catch {
          return true;
        }
      };
      while (!stopped()) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    resume: () => child?.kill('SIGCONT'),
    destroy: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    output: () => log,
  };
}

/** How the proxy answers while its upstream cannot be reached. */
export type ProxyOutage = 'html-502' | 'html-504';

/**
 * A reverse proxy on 127.0.0.1 forwarding every request to an upstream, as nginx would in front
 * of Meilisearch. When the upstream cannot be reached it answers like nginx does: an HTML error
 * page with status 502 (or 504 for a gateway timeout).
 */
export interface MeiliProxy {
  url: string;
  /** Where requests go; a closed port makes the upstream unreachable. */
  setUpstream(url: string): void;
  /** The error page used when the upstream cannot be reached. */
  setOutage(kind: ProxyOutage): void;
  close(): Promise<void>;
}

function errorPage(status: number, reason: string): string {
  return `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

export async function startMeiliProxy(upstream: string): Promise<MeiliProxy> {
  let target = new URL(upstream);
  let outage: ProxyOutage = 'html-502';
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const upstreamRequest = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstreamRequest.on('error', () => {
      const [status, reason] = outage === 'html-504' ? [504, 'Gateway Time-out'] : [502, 'Bad Gateway'];
      outgoing.writeHead(status, { 'Content-Type': 'text/html', Server: 'nginx' });
      outgoing.end(errorPage(status, reason));
    });
    incoming.pipe(upstreamRequest);
  };
  const server: Server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setUpstream: (url) => {
      target = new URL(url);
    },
    setOutage: (kind) => {
      outage = kind;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An address on 127.0.0.1 where nothing listens. */
export async function closedAddress(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}
