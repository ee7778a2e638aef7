import { expect } from 'chai';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { searchEnvironment } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function waitForReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/readyz`).then((response) => response.ok, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become ready');
}

/** Runs src/main.ts with `env` over defaults that would start it, until it exits; its exit code and output. */
async function failedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ARCHIVE_WORKERS: '0', ARCHIVE_DEMO: '0', ARCHIVE_LOG_LEVEL: 'warn', ARCHIVE_DRAIN_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(killer);
  return { code, output };
}

describe('the server process (npm start)', function () {
  this.timeout(60_000);

  for (const workers of [0, 2]) {
    it(`loads the demo catalog into an empty data folder, serves it and stops gracefully (${workers} workers)`, async () => {
      const dataDir = temporaryDataDir();
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ARCHIVE_DATA_DIR: dataDir, ARCHIVE_WORKERS: String(workers), ARCHIVE_BASE_URL: 'https://archive.test/', ARCHIVE_DRAIN_MS: '0', ...searchEnvironment(dataDir, {}) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        const url = `http://127.0.0.1:${port}`;
        await waitForReady(url, child, 45_000);
        const list = (await (await fetch(`${url}/api/v1/specimens?lang=en&limit=1`)).json()) as { total: number; items: { url: string }[] };
        expect(list.total).to.equal(44);
        expect(list.items[0]?.url).to.match(/^https:\/\/archive\.test\/en\/specimens\//);
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        child.kill('SIGTERM');
        expect(await exited).to.equal(0);
        const lines = output.trim().split('\n').map((line) => JSON.parse(line) as { msg: string });
        expect(lines.some((line) => line.msg === 'demo catalog loaded')).to.equal(true);
        expect(lines.filter((line) => line.msg === 'request' && (line as { path?: string }).path === '/api/v1/specimens')).to.have.length(1);
      } finally {
        child.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }

  for (const workers of [0, 1]) {
    it(`stops with a message naming the port when it is taken, instead of restarting workers forever (${workers} workers)`, async () => {
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const { port } = holder.address() as AddressInfo;
      const dataDir = temporaryDataDir();
      try {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
          env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ARCHIVE_DATA_DIR: dataDir, ARCHIVE_WORKERS: String(workers), ARCHIVE_DEMO: '0', ARCHIVE_LOG_LEVEL: 'warn' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
        expect(code, output).to.equal(1);
        expect(output).to.include(`Port ${port} on 127.0.0.1 is in use`);
        expect(output).to.not.include('starting another');
      } finally {
        await new Promise<void>((resolve) => holder.close(() => resolve()));
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }

  it('refuses to start with invalid configuration, naming every problem', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: { ...process.env, PORT: 'eighty', ARCHIVE_BASE_URL: 'not a url', ARCHIVE_WORKERS: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).to.equal(1);
    expect(stderr).to.include('PORT');
    expect(stderr).to.include('ARCHIVE_BASE_URL');
  });

  describe('stops with a message naming the variable and its value', () => {
    let dataDir = '';
    beforeEach(() => {
      dataDir = temporaryDataDir();
    });
    afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

    it('when HOST does not resolve', async () => {
      const { code, output } = await failedStart({ ARCHIVE_DATA_DIR: dataDir, HOST: 'nonexistent.invalid' });
      expect(code, output).to.equal(1);
      expect(output).to.include('HOST=nonexistent.invalid does not resolve to an address (ENOTFOUND): set HOST to an address of this machine');
    });

    it('when the metrics port is taken', async () => {
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const { port } = holder.address() as AddressInfo;
      try {
        const { code, output } = await failedStart({ ARCHIVE_DATA_DIR: dataDir, ARCHIVE_METRICS_PORT: String(port) });
        expect(code, output).to.equal(1);
        expect(output).to.include(`Port ${port} on 127.0.0.1 is in use: stop the server that holds it, or choose another with ARCHIVE_METRICS_PORT.`);
      } finally {
        await new Promise<void>((resolve) => holder.close(() => resolve()));
      }
    });

    it('when ARCHIVE_DATA_DIR is a file', async () => {
      const file = join(dataDir, 'not-a-folder');
      writeFileSync(file, 'a file\n');
      const { code, output } = await failedStart({ ARCHIVE_DATA_DIR: file });
      expect(code, output).to.equal(1);
      expect(output).to.include(`ARCHIVE_DATA_DIR=${file} is not a folder (a file is in the way): set ARCHIVE_DATA_DIR to a folder`);
    });

    it('when ARCHIVE_DATA_DIR holds an archive\'s media and write-ahead log but not its database, instead of starting a new archive on the demo', async () => {
      mkdirSync(join(dataDir, 'media', 'ab'), { recursive: true });
      writeFileSync(join(dataDir, 'media', 'ab', 'ab12.png'), 'a preview\n');
      writeFileSync(join(dataDir, 'archive.sqlite-wal'), '');
      const { code, output } = await failedStart({ ARCHIVE_DATA_DIR: dataDir });
      expect(code, output).to.equal(1);
      expect(output).to.include(`ARCHIVE_DATA_DIR=${dataDir} holds archive.sqlite-wal and stored media (${join(dataDir, 'media')}) but no archive.sqlite: the archive's database was removed or moved. Put it back, or restore a backup`);
      expect(existsSync(join(dataDir, 'archive.sqlite')), 'no new archive made').to.equal(false);
    });

    it('when ARCHIVE_DATA_DIR cannot be created where its parent refuses new entries (under /proc), without hanging', async () => {
      // Node's recursive mkdir loops for ever here; failedStart kills a start that hangs after 30 s.
      const { code, output } = await failedStart({ ARCHIVE_DATA_DIR: '/proc/archive-data' });
      expect(code, output).to.equal(1);
      expect(output).to.include('ARCHIVE_DATA_DIR=/proc/archive-data cannot be created (ENOENT): create it and let the user running the archive write to it');
    });
  });
});
