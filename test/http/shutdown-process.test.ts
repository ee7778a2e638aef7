import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort, getOnNewConnection, searchEnvironment, startServerProcess } from '../helpers/server-process.ts';
import type { ServerProcess } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';

interface Answer {
  sentAt: number;
  status: number;
  connection: string | undefined;
}

/** One GET through `agent`, which reuses its keep-alive connection while the server lets it. */
function getThrough(agent: Agent, url: string): Promise<Answer> {
  const sentAt = Date.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ sentAt, status: response.statusCode ?? 0, connection: response.headers.connection }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A keep-alive client sending one request after another until `until` says stop. */
async function keepAliveClient(url: string, until: () => boolean, answers: Answer[], failures: string[]): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    while (!until()) {
      try {
        answers.push(await getThrough(agent, url));
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
  } finally {
    agent.destroy();
  }
}

/** Asks /readyz on fresh connections until it answers 503 or `timeoutMs` passes; the statuses seen. */
async function readinessUntilRefused(url: string, timeoutMs: number): Promise<number[]> {
  const statuses: number[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !statuses.includes(503)) {
    statuses.push(await getOnNewConnection(`${url}/readyz`).then((answer) => answer.status, () => 0));
    await delay(10);
  }
  return statuses;
}

/**
 * Starts src/main.ts with the demo catalog over an empty folder, sends SIGTERM as soon as the
 * process says it is starting, and resolves with its exit code (null when it had to be killed)
 * and output.
 */
async function signalDuringStart(dataDir: string, workers: number): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ARCHIVE_DATA_DIR: dataDir, ARCHIVE_WORKERS: String(workers), ARCHIVE_DEMO: '1', ARCHIVE_LOG_LEVEL: 'info', ...searchEnvironment(dataDir, {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('"msg":"starting"') && child.signalCode === null) child.kill('SIGTERM');
  });
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(killer);
  return { code, output };
}

describe('shutting down the server process', function () {
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

  for (const workers of [0, 1]) {
    it(`drains on SIGTERM without losing a request of its keep-alive clients (${workers} workers)`, async () => {
      // The clients keep sending for most of the drain window, so a busy machine still sends some after the signal.
      const drainMs = 1500;
      const clientsStopAfterMs = 700;
      server = await startServerProcess(dataDir, { ARCHIVE_WORKERS: String(workers), ARCHIVE_DRAIN_MS: String(drainMs), ARCHIVE_RATE_LIMIT_READS: '0' });
      const answers: Answer[] = [];
      const failures: string[] = [];
      let stopClientsAt = Number.POSITIVE_INFINITY;
      const clients = Array.from({ length: 4 }, () => keepAliveClient(`${server?.url}/api/v1/specimens?lang=en`, () => Date.now() >= stopClientsAt, answers, failures));
      await delay(300);
      const signalledAt = Date.now();
      stopClientsAt = signalledAt + clientsStopAfterMs;
      server.child.kill('SIGTERM');
      const readiness = await readinessUntilRefused(server.url, drainMs);
      await Promise.all(clients);
      const code = await server.exited;

      expect(failures.length, `${failures.slice(0, 5).join('; ')}\n${server.output()}`).to.equal(0);
      expect(code, server.output()).to.equal(0);
      expect(readiness.at(-1), `readiness answers: ${readiness.join(', ')}`).to.equal(503);
      expect(answers.every((answer) => answer.status === 200)).to.equal(true);
      expect(answers.filter((answer) => answer.sentAt < signalledAt).length).to.be.above(20);
      // Allow for the signal's way to the process (and on to the worker).
      const afterSignal = answers.filter((answer) => answer.sentAt >= signalledAt + 100);
      expect(afterSignal.length, 'requests sent during the drain window').to.be.above(2);
      expect(afterSignal.filter((answer) => answer.connection !== 'close')).to.deep.equal([]);
    });
  }

  for (const workers of [0, 1]) {
    it(`stops cleanly on SIGTERM during start-up, and starts again on the same folder (${workers} workers)`, async () => {
      const { code, output } = await signalDuringStart(dataDir, workers);
      expect(code, output).to.equal(0);
      const lines = output.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; signal?: string });
      expect(lines.filter((line) => line.signal === 'SIGTERM').map((line) => line.msg), output).to.deep.equal(['stop requested during start-up; stopping after the step in hand', 'start-up stopped']);
      expect(lines.some((line) => line.msg === 'listening')).to.equal(false);
      server = await startServerProcess(dataDir, { ARCHIVE_DEMO: '1' });
      const list = (await (await fetch(`${server.url}/api/v1/specimens?lang=en&limit=1`)).json()) as { total: number };
      expect(list.total).to.equal(44);
    });
  }
});
