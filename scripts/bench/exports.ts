/**
 * The exports scenario: downloads each public bulk export once from the running server, counting
 * bytes and records as the body streams in (never holding it), while sampling the RSS of the
 * server's processes every 50 ms to show that streaming keeps memory flat.
 */
import { request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { cpuSeconds, processTree, rssMegabytes } from './processes.ts';
import type { ExportDownload, ProcessMemory } from './types.ts';

/** The downloads, in the order they run: each public export uncompressed, then the English JSON gzipped. */
export const EXPORT_DOWNLOADS: readonly { path: string; encoding: 'identity' | 'gzip' }[] = [
  { path: '/en/data/catalog.json', encoding: 'identity' },
  { path: '/en/data/catalog.csv', encoding: 'identity' },
  { path: '/data/catalog.json', encoding: 'identity' },
  { path: '/data/catalog.csv', encoding: 'identity' },
  { path: '/en/data/catalog.json', encoding: 'gzip' },
];

/** The most a serving process's RSS may grow during a download for memory to count as flat. */
export const FLAT_MEMORY_LIMIT_MB = 64;

const SAMPLE_MS = 50;
const TIMEOUT_MS = 300_000;
const USER_AGENT = 'archive-bench/1 (+scripts/bench)';
const MB = 2 ** 20;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/** What a counter makes of a whole body. */
interface Count {
  records: number;
  statedTotal: number | null;
  problems: string[];
}

/** Counts the records of an export chunk by chunk, keeping only a few bytes of the body. */
interface Counter {
  push(chunk: Uint8Array): void;
  finish(): Count;
}

/** The first bytes of a body, kept to check its start. */
class Head {
  private readonly parts: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Uint8Array): void {
    if (this.size >= this.limit) return;
    const part = Buffer.from(chunk.subarray(0, this.limit - this.size));
    this.parts.push(part);
    this.size += part.length;
  }

  text(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }
}

/**
 * The JSON export puts its opening on the first line, each item on a line of its own (JSON.stringify
 * escapes line breaks in strings) and `],"total":N}` on the last: items are the lines starting with
 * `{`, checked against the stated total.
 */
function jsonCounter(): Counter {
  const head = new Head(256);
  let tail = Buffer.alloc(0);
  let items = 0;
  let closers = 0;
  let strays = 0;
  let lineStart = false;
  const follow = (byte: number): void => {
    if (byte === 0x7b) items += 1;
    else if (byte === 0x5d) closers += 1;
    else strays += 1;
  };
  return {
    push(chunk) {
      head.push(chunk);
      let from = 0;
      if (lineStart && chunk.length > 0) {
        follow(chunk[0] ?? 0);
        lineStart = false;
      }
      for (;;) {
        const at = chunk.indexOf(LF, from);
        if (at < 0) break;
        if (at + 1 < chunk.length) follow(chunk[at + 1] ?? 0);
        else lineStart = true;
        from = at + 1;
      }
      tail = Buffer.concat([tail, Buffer.from(chunk.subarray(Math.max(0, chunk.length - 128)))]).subarray(-128);
    },
    finish() {
      const problems: string[] = [];
      if (!head.text().startsWith('{"version":') || !head.text().includes('"items":[')) problems.push(`the body does not start like the catalog: ${JSON.stringify(head.text().slice(0, 80))}`);
      const end = /\n\],"total":(\d+)\}\n$/.exec(tail.toString('utf8'));
      if (!end) problems.push(`the body does not end with the total: ${JSON.stringify(tail.toString('utf8').slice(-60))}`);
      if (closers !== 1 || strays > 0) problems.push(`${closers} closing lines and ${strays} lines that are neither an item nor the end`);
      return { records: items, statedTotal: end ? Number(end[1]) : null, problems };
    },
  };
}

/** The CSV export: CRLF-terminated rows after a header, line breaks inside quoted fields skipped. */
function csvCounter(): Counter {
  const head = new Head(64);
  let lines = 0;
  let bareLineFeeds = 0;
  let quoted = false;
  let previous = 0;
  return {
    push(chunk) {
      head.push(chunk);
      for (let i = 0; i < chunk.length; i += 1) {
        const byte = chunk[i] ?? 0;
        if (byte === QUOTE) quoted = !quoted;
        else if (byte === LF && !quoted) {
          lines += 1;
          if (previous !== CR) bareLineFeeds += 1;
        }
        previous = byte;
      }
    },
    finish() {
      const problems: string[] = [];
      if (!head.text().replace(/^\ufeff/, '').startsWith('id,kind,')) problems.push(`the body does not start with the header: ${JSON.stringify(head.text().slice(0, 60))}`);
      if (quoted) problems.push('the body ends inside a quoted field');
      if (previous !== LF) problems.push('the body does not end with a line break');
      if (bareLineFeeds) problems.push(`${bareLineFeeds} rows end with a bare LF instead of CRLF`);
      return { records: Math.max(0, lines - 1), statedTotal: null, problems };
    },
  };
}

/** Samples the RSS of the server's processes every 50 ms and notes their CPU, from start to stop. */
class MemorySampler {
  private readonly pids: number[];
  private readonly before: number[];
  private readonly peak: number[];
  private readonly cpuBefore: number[];
  private readonly timer: NodeJS.Timeout;
  samples = 0;

  constructor(private readonly primary: number) {
    this.pids = processTree(primary);
    this.before = this.pids.map(rssMegabytes);
    this.peak = [...this.before];
    this.cpuBefore = this.pids.map(cpuSeconds);
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }

  private sample(): void {
    this.samples += 1;
    for (const [i, pid] of this.pids.entries()) this.peak[i] = Math.max(this.peak[i] ?? 0, rssMegabytes(pid));
  }

  /** Stops sampling; the process list, and a problem when the server's processes changed meanwhile. */
  stop(): { processes: ProcessMemory[]; problem?: string } {
    clearInterval(this.timer);
    this.sample();
    const processes = this.pids.map((pid, i): ProcessMemory => ({
      pid,
      role: i === 0 ? 'primary' : 'worker',
      beforeMegabytes: this.before[i] ?? 0,
      peakMegabytes: this.peak[i] ?? 0,
      cpuSeconds: Math.max(0, cpuSeconds(pid) - (this.cpuBefore[i] ?? 0)),
    }));
    const now = processTree(this.primary);
    const changed = now.length !== this.pids.length || now.some((pid) => !this.pids.includes(pid));
    return changed ? { processes, problem: `the server's processes changed during the download (${this.pids.join(', ')} → ${now.join(', ')}): a worker exited` } : { processes };
  }
}

/** GET url with node:http, which hands over the body as sent (fetch would decompress it). */
function get(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers, signal }, resolve);
    sent.on('error', reject);
    sent.end();
  });
}

interface Received {
  status: number;
  contentEncoding: string;
  bytes: number;
  decodedBytes: number;
  firstByteSeconds: number;
  /** The start of a body that was not 200, for the report. */
  error?: string;
}

/** Streams an uncompressed export with fetch, asking for identity explicitly: fetch otherwise asks for gzip and decompresses. */
async function receivePlain(url: string, counter: Counter, started: number): Promise<Received> {
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity', 'user-agent': USER_AGENT }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  const firstByteSeconds = (performance.now() - started) / 1000;
  const contentEncoding = response.headers.get('content-encoding') ?? 'identity';
  if (response.status !== 200 || !response.body) return { status: response.status, contentEncoding, bytes: 0, decodedBytes: 0, firstByteSeconds, error: (await response.text()).slice(0, 300) };
  let bytes = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    counter.push(value);
  }
  return { status: response.status, contentEncoding, bytes, decodedBytes: bytes, firstByteSeconds };
}

/** Streams a gzipped export with node:http, counting the compressed bytes and the records after gunzip. */
async function receiveGzip(url: string, counter: Counter, started: number): Promise<Received> {
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  const response = await get(url, { 'accept-encoding': 'gzip', 'user-agent': USER_AGENT }, signal);
  const firstByteSeconds = (performance.now() - started) / 1000;
  const status = response.statusCode ?? 0;
  const contentEncoding = response.headers['content-encoding'] ?? 'identity';
  if (status !== 200 || contentEncoding !== 'gzip') {
    const start: Buffer[] = [];
    for await (const chunk of response) if (start.length < 4) start.push(chunk as Buffer);
    return { status, contentEncoding, bytes: 0, decodedBytes: 0, firstByteSeconds, error: Buffer.concat(start).toString('utf8').slice(0, 300) };
  }
  let bytes = 0;
  let decodedBytes = 0;
  await pipeline(
    response,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        bytes += chunk.length;
        yield chunk;
      }
    },
    createGunzip(),
    async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        decodedBytes += chunk.length;
        counter.push(chunk);
      }
    },
    { signal },
  );
  return { status, contentEncoding, bytes, decodedBytes, firstByteSeconds };
}

const message = (error: unknown): string => (error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error));

/** Each server process over all downloads: RSS before the first, the highest peak, and CPU summed. */
export function overallMemory(downloads: readonly ExportDownload[]): ProcessMemory[] {
  const byPid = new Map<number, ProcessMemory>();
  for (const download of downloads) {
    for (const one of download.processes) {
      const seen = byPid.get(one.pid);
      if (seen) byPid.set(one.pid, { ...seen, peakMegabytes: Math.max(seen.peakMegabytes, one.peakMegabytes), cpuSeconds: seen.cpuSeconds + one.cpuSeconds });
      else byPid.set(one.pid, { ...one });
    }
  }
  return [...byPid.values()];
}

/** Downloads one export while sampling the server's memory; never throws (a failure becomes a problem). */
export async function downloadExport(origin: string, path: string, encoding: 'identity' | 'gzip', primary: number, expected: number): Promise<ExportDownload> {
  const counter = path.endsWith('.csv') ? csvCounter() : jsonCounter();
  const sampler = new MemorySampler(primary);
  const started = performance.now();
  const problems: string[] = [];
  let received: Received = { status: 0, contentEncoding: '', bytes: 0, decodedBytes: 0, firstByteSeconds: 0 };
  try {
    received = await (encoding === 'gzip' ? receiveGzip : receivePlain)(`${origin}${path}`, counter, started);
  } catch (error) {
    problems.push(`the download failed: ${message(error)}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const memory = sampler.stop();
  if (memory.problem) problems.push(memory.problem);
  let count: Count = { records: 0, statedTotal: null, problems: [] };
  if (received.error !== undefined) problems.push(`answered ${received.status} ${received.contentEncoding}: ${received.error.replace(/\s+/g, ' ')}`);
  else if (!problems.length) {
    count = counter.finish();
    problems.push(...count.problems);
    if (received.contentEncoding !== encoding) problems.push(`sent with content-encoding ${received.contentEncoding}, ${encoding} was asked for`);
    if (count.records !== expected) problems.push(`${count.records.toLocaleString('en-US')} records, the catalog holds ${expected.toLocaleString('en-US')}`);
    if (count.statedTotal !== null && count.statedTotal !== count.records) problems.push(`the export states a total of ${count.statedTotal}, it holds ${count.records} items`);
  }
  // The processes that serve requests: the workers, or the primary when it serves alone.
  const serving = memory.processes.length > 1 ? memory.processes.slice(1) : memory.processes;
  const served = serving.reduce<ProcessMemory | undefined>((best, one) => (!best || one.cpuSeconds > best.cpuSeconds ? one : best), undefined);
  const increase = (one: ProcessMemory): number => one.peakMegabytes - one.beforeMegabytes;
  return {
    path,
    encoding,
    status: received.status,
    contentEncoding: received.contentEncoding,
    bytes: received.bytes,
    decodedBytes: received.decodedBytes,
    firstByteSeconds: received.firstByteSeconds,
    seconds,
    recordsPerSecond: seconds > 0 ? count.records / seconds : 0,
    megabytesPerSecond: seconds > 0 ? received.bytes / MB / seconds : 0,
    records: count.records,
    statedTotal: count.statedTotal,
    expected,
    problems,
    samples: sampler.samples,
    processes: memory.processes,
    servedBy: served?.pid ?? 0,
    servedIncreaseMegabytes: served ? increase(served) : 0,
    maxIncreaseMegabytes: Math.max(0, ...serving.map(increase)),
  };
}
