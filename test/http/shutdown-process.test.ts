import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { getOnNewConnection, startServerProcess } from '../helpers/server-process.ts';
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
      const drainMs = 800;
      const clientsStopAfterMs = 300;
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
      expect(afterSignal.length).to.be.above(10);
      expect(afterSignal.filter((answer) => answer.connection !== 'close')).to.deep.equal([]);
    });
  }
});
