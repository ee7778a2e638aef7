/** Child processes of the benchmark: catalog tool, server, load process, and their memory. */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { HashesResult, LoadConfig, LoadResult, PublisherResult } from './types.ts';

/** The project root, where `node --import tsx` resolves. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Finished {
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Runs `node NODE_ARGS --import tsx SCRIPT ARGS` to completion; rejects on a non-zero exit. */
export async function runTsx(script: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env, input?: string, nodeArgs: readonly string[] = []): Promise<Finished> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.on('error', () => undefined);
  child.stdin.end(input ?? '');
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  const result = { stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), seconds: (performance.now() - started) / 1000 };
  if (code !== 0) throw new Error(`${script} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${result.stderr || result.stdout}`);
  return result;
}

/** A port free on 127.0.0.1 right now: listen on port 0, note the port, close. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The server child with the last lines it wrote (it logs JSON lines at warn and above). */
export interface Server {
  child: ChildProcess;
  pid: number;
  lines: string[];
  exited: Promise<void>;
}

/** With BENCH_PROFILE_DIR set, every server process writes a V8 CPU profile there when it exits (cluster workers inherit the flags). */
function profilingArgs(): string[] {
  const directory = process.env.BENCH_PROFILE_DIR;
  return directory ? ['--cpu-prof', `--cpu-prof-dir=${directory}`] : [];
}

export function startServer(env: NodeJS.ProcessEnv): Server {
  const child = spawn(process.execPath, [...profilingArgs(), '--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error('could not start the server');
  const lines: string[] = [];
  const keep = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim() && lines.length < 200) lines.push(line);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = once(child, 'exit').then(() => undefined);
  return { child, pid: child.pid, lines, exited };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds from started until GET url answers 200, polling every 50 ms. */
export async function waitUntilReady(server: Server, url: string, started: number, timeoutSeconds: number): Promise<number> {
  let exited = false;
  void server.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`the server exited before it was ready:\n${server.lines.join('\n')}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === 200) return (performance.now() - started) / 1000;
    } catch {
      // not listening yet
    }
    if ((performance.now() - started) / 1000 > timeoutSeconds) throw new Error(`the server was not ready after ${timeoutSeconds} s`);
    await sleep(50);
  }
}

/** Direct children of pid, from /proc (every thread's children file) or else from ps. */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    try {
      return execFileSync('ps', ['--ppid', String(pid), '-o', 'pid='], { encoding: 'utf8' }).split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  }
}

function rssKilobytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The command name of a process (e.g. node, esbuild), ? when it is gone. */
export function commandName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

/** Pid and all its descendants, pid first. */
export function processTree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i += 1) pids.push(...childrenOf(pids[i] ?? 0));
  return pids;
}

/** Resident memory of one process in MB (2^20 bytes), 0 when it is gone. */
export function rssMegabytes(pid: number): number {
  return rssKilobytes(pid) / 1024;
}

let clockTicks: number | undefined;

/** User plus system CPU time of one process so far, in seconds (0 when it is gone). */
export function cpuSeconds(pid: number): number {
  clockTicks ??= (() => {
    try {
      return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      return 100;
    }
  })();
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 on: utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return 0;
  }
}

/** Resident memory of pid and all its descendants, in MB, with the processes counted (e.g. "node 180, node 240"). */
export function treeRss(pid: number): { megabytes: number; processes: number; detail: string } {
  const pids = processTree(pid);
  const each = pids.map((one) => ({ name: commandName(one), kilobytes: rssKilobytes(one) }));
  const kilobytes = each.reduce((sum, one) => sum + one.kilobytes, 0);
  const detail = each.map((one) => `${one.name} ${Math.round(one.kilobytes / 1024)}`).join(', ');
  return { megabytes: Math.round(kilobytes / 1024), processes: pids.length, detail };
}

/** SIGTERM, wait up to graceSeconds for the exit, then SIGKILL the primary and its children. */
export async function stopServer(server: Server, graceSeconds = 15): Promise<'clean' | 'killed'> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return 'clean';
  const children = childrenOf(server.pid);
  server.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), graceSeconds * 1000)));
  const result = await Promise.race([server.exited.then(() => 'clean' as const), timeout]);
  clearTimeout(timer);
  if (result === 'clean') return 'clean';
  for (const pid of [server.pid, ...children]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await server.exited;
  return 'killed';
}

/** Runs one scenario in a separate load process (scripts/bench/load.ts). */
export async function runLoad(config: LoadConfig): Promise<LoadResult> {
  const { stdout } = await runTsx('scripts/bench/load.ts', [], process.env, JSON.stringify(config));
  return JSON.parse(stdout) as LoadResult;
}

/** The duplicate lookup benchmark in its own process (scripts/bench/hashes.ts), with a forced GC for the heap figures. */
export async function runHashes(): Promise<HashesResult> {
  const { stdout } = await runTsx('scripts/bench/hashes.ts', [], process.env, '', ['--expose-gc']);
  return JSON.parse(stdout) as HashesResult;
}

/** The publisher benchmark in its own process (scripts/bench/publisher.ts); env sets its runs. */
export async function runPublisher(env: NodeJS.ProcessEnv): Promise<PublisherResult> {
  const { stdout } = await runTsx('scripts/bench/publisher.ts', [], env);
  return JSON.parse(stdout) as PublisherResult;
}
