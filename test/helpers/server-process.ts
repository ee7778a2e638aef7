import { spawn } from 'node:child_process';
import { request } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { dropMeiliIndexes, sharedMeili } from './meili.ts';

/** A port free on 127.0.0.1 at the time of asking. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Index prefixes given to server processes in this run, dropped once every test has run. */
const meiliPrefixes = new Set<string>();
// A root hook of the mocha run (this module is also imported by scripts outside mocha).
if (typeof after === 'function') {
  after(async () => {
    const shared = sharedMeili();
    if (!shared) return;
    for (const indexPrefix of meiliPrefixes) await dropMeiliIndexes({ ...shared, indexPrefix });
  });
}

/**
 * With ARCHIVE_SEARCH=meili, a server process gets Meilisearch indexes of its data folder's own
 * (the same across restarts over that folder), never the unprefixed ones another run may use.
 */
export function searchEnvironment(dataDir: string, env: Record<string, string>): Record<string, string> {
  if ((env.ARCHIVE_SEARCH ?? process.env.ARCHIVE_SEARCH) !== 'meili' || env.MEILI_INDEX_PREFIX !== undefined) return {};
  return { MEILI_INDEX_PREFIX: processIndexPrefix(dataDir) };
}

/** The Meilisearch index prefix of the server processes over a data folder. */
export function processIndexPrefix(dataDir: string): string {
  const prefix = `process_${basename(dataDir).replace(/[^A-Za-z0-9]/g, '_')}_`;
  meiliPrefixes.add(prefix);
  return prefix;
}

/** `npm start` as a child process on 127.0.0.1, with everything it wrote kept for failure messages. */
export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null after a signal) once the process has exited. */
  exited: Promise<number | null>;
  /** Sends the signal and waits for the exit. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts src/main.ts over a data folder and waits for /readyz. ARCHIVE_WORKERS defaults to 0 (one
 * process serves and publishes), the demo catalog to off, the drain window on SIGTERM to none;
 * `env` overrides anything.
 */
export async function startServerProcess(dataDir: string, env: Record<string, string> = {}, options: { port?: number; readyTimeoutMs?: number } = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ARCHIVE_DATA_DIR: dataDir, ARCHIVE_BASE_URL: url, ARCHIVE_WORKERS: '0', ARCHIVE_DEMO: '0', ARCHIVE_DRAIN_MS: '0', ARCHIVE_LOG_LEVEL: 'warn', ...searchEnvironment(dataDir, env), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server: ServerProcess = {
    url,
    port,
    child,
    output: () => output,
    exited,
    stop: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 45_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${url}/readyz`).then((response) => response.ok, () => false);
    if (ready) return server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.stop('SIGKILL');
  throw new Error(`server did not become ready:\n${output}`);
}

/** One GET on a connection of its own, so cluster workers take turns answering it. */
export function getOnNewConnection(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent: false, headers: { Connection: 'close' } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
