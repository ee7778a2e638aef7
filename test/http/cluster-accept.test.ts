import { expect } from 'chai';
import { readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { getOnNewConnection, startServerProcess } from '../helpers/server-process.ts';
import type { ServerProcess } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';

const CONNECTIONS = 40;

/** The pids of a process's children that run the server (not the TypeScript loader's helpers), from /proc. */
function workersOf(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number),
  );
  return children.filter((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('src/main.ts'));
}

/** The server side's socket inodes of the established connections from the client ports given to `port`, from /proc/net/tcp. */
function establishedOn(port: number, clientPorts: ReadonlySet<number>): Set<string> {
  const rows = readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1).filter(Boolean);
  const inodes = new Set<string>();
  for (const row of rows) {
    const fields = row.trim().split(/\s+/);
    const portOf = (address: string | undefined): number => parseInt((address ?? '').split(':')[1] ?? '', 16);
    if (portOf(fields[1]) === port && clientPorts.has(portOf(fields[2])) && fields[3] === '01') inodes.add(fields[9] ?? '');
  }
  return inodes;
}

/** How many of the connections a process holds open, by its file descriptors. */
function heldBy(pid: number, inodes: ReadonlySet<string>): number {
  let held = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const target = (() => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    })();
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode && inodes.has(inode)) held += 1;
  }
  return held;
}

/** A GET on an agent's connection, resolved with the status once the body is read. */
function get(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

/**
 * `npm start` with two workers: the primary hands new connections to them in turn. When the
 * workers accepted for themselves, a burst of connections opened at once went mostly or wholly
 * to one of them, which then served all their requests alone (docs/operations.md, "Who accepts
 * connections").
 */
describe('connections opened at once, with two workers', function () {
  this.timeout(90_000);
  const dataDir = temporaryDataDir();
  let server: ServerProcess;

  before(async () => {
    server = await startServerProcess(dataDir, { ARCHIVE_WORKERS: '2', ARCHIVE_RATE_LIMIT_READS: '0', ARCHIVE_LOG_LEVEL: 'info' });
    // Ready means one worker listens; connections are handed only to workers that listen.
    const deadline = Date.now() + 30_000;
    while (server.output().split('"msg":"listening"').length - 1 < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  });
  after(async () => {
    await server?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('are shared out evenly between the workers', async () => {
    const workers = workersOf(server.child.pid as number);
    expect(workers).to.have.length(2);

    // Both workers warm: a worker's first connections take it longer, and a slower worker gets fewer.
    for (let i = 0; i < 100; i += 1) await getOnNewConnection(`${server.url}/healthz`);
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    try {
      const statuses = await Promise.all(Array.from({ length: CONNECTIONS }, () => get(`${server.url}/healthz`, agent)));
      expect(statuses.every((status) => status === 200)).to.equal(true);
      // The agent keeps them open: count each worker's share of them.
      const clientPorts = new Set(Object.values(agent.freeSockets).flatMap((sockets) => (sockets ?? []).map((socket) => socket.localPort ?? 0)));
      expect(clientPorts.size).to.equal(CONNECTIONS);
      const open = establishedOn(server.port, clientPorts);
      const shares = workers.map((pid) => heldBy(pid, open));
      expect(shares.reduce((a, b) => a + b, 0), `shares ${shares.join('/')}`).to.equal(CONNECTIONS);
      // Each worker holds at least an eighth: handed out in turn they split about evenly, 31/9 at
      // worst seen on a loaded machine (a worker busy with its last hand-over is skipped), where
      // workers accepting for themselves left one worker 0-4 of 40 (45-50 of the bench's 50).
      for (const share of shares) expect(share, `shares ${shares.join('/')}`).to.be.at.least(CONNECTIONS / 8);
    } finally {
      agent.destroy();
    }
  });
});
