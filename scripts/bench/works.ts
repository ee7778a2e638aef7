/**
 * The synthetic works the publisher benchmarks submit: distinct line drawings rendered to PNG,
 * a loopback server that hands them out as previews, and submission bodies that point at them.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { Submission } from '../../src/domain/submission.ts';
import { inspectImage } from '../../indexer/media/inspect-image.ts';
import { AMBIGUOUS_MAX_DISTANCE, hammingDistance } from '../../indexer/media/perceptual-hash.ts';

/** Previews per submitted work. */
export const PREVIEWS_PER_SUBMISSION = 3;
/** Generated previews must be at least this far apart (perceptual distance), a margin over the ambiguity limit. */
const MIN_DISTANCE = AMBIGUOUS_MAX_DISTANCE + 12;

/** A deterministic line drawing on white (curves, circles, a polyline), like a typical SVG work's preview. */
function drawingSvg(seed: number, width = 600, height = 400): string {
  let state = (seed * 2654435761 + 12345) >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const x = (): string => (40 + random() * (width - 80)).toFixed(0);
  const y = (): string => (30 + random() * (height - 60)).toFixed(0);
  const stroke = (): string => `stroke="#${['222', '1a4d8f', '8f1a1a', '2d6b2d'][Math.floor(random() * 4)] ?? '222'}" stroke-width="${(3 + random() * 6).toFixed(0)}" fill="none"`;
  const shapes: string[] = [];
  const count = 8 + Math.floor(random() * 8);
  for (let i = 0; i < count; i += 1) {
    const pick = random();
    if (pick < 0.3) shapes.push(`<circle cx="${x()}" cy="${y()}" r="${(10 + random() * 70).toFixed(0)}" ${stroke()}/>`);
    else if (pick < 0.45) shapes.push(`<rect x="${x()}" y="${y()}" width="${(20 + random() * 120).toFixed(0)}" height="${(20 + random() * 90).toFixed(0)}" fill="#${['333', '7a9cc6', 'd9a441'][Math.floor(random() * 3)] ?? '333'}"/>`);
    else if (pick < 0.7) shapes.push(`<polyline points="${x()},${y()} ${x()},${y()} ${x()},${y()} ${x()},${y()}" ${stroke()}/>`);
    else shapes.push(`<path d="M${x()} ${y()} Q${x()} ${y()} ${x()} ${y()} T${x()} ${y()}" ${stroke()}/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${shapes.join('')}</svg>`;
}

export interface Preview {
  bytes: Buffer;
  hash: string;
}

/** count PNG previews, each farther than MIN_DISTANCE from every other; seeds that come too close are skipped. */
export async function renderPreviews(count: number): Promise<{ previews: Preview[]; closest: number }> {
  const previews: Preview[] = [];
  let seed = 1;
  let closest = 256;
  while (previews.length < count) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(16, count - previews.length) }, async (_, i) => {
        const bytes = await sharp(Buffer.from(drawingSvg(seed + i))).png().toBuffer();
        const inspection = await inspectImage(bytes);
        if (!inspection.ok || inspection.blank) throw new Error(`drawing ${seed + i} does not pass inspection`);
        return { bytes, hash: inspection.blockhash };
      }),
    );
    seed += batch.length;
    for (const candidate of batch) {
      if (previews.length >= count) break;
      const nearest = previews.reduce((least, other) => Math.min(least, hammingDistance(candidate.hash, other.hash)), 256);
      if (nearest < MIN_DISTANCE) continue;
      closest = Math.min(closest, nearest);
      previews.push(candidate);
    }
    if (seed > count * 20) throw new Error(`only ${previews.length} of ${count} previews could be made distinct`);
  }
  return { previews, closest };
}

/** A loopback server of the previews at /preview-{i}.png; host is its 127.0.0.1:port. */
export async function serve(previews: readonly Preview[]): Promise<{ server: Server; host: string }> {
  const server = createServer((request, response) => {
    const match = /^\/preview-(\d+)\.png$/.exec(request.url ?? '');
    const preview = match ? previews[Number(match[1])] : undefined;
    if (!preview) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': preview.bytes.length }).end(preview.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, host: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Submission i of a benchmark: an SVG work by one of `models` model labels, under the given source owner. */
export function benchSubmission(i: number, models: number, urls: readonly string[], owner = 'bench-owner'): Submission {
  const month = String((i % 12) + 1).padStart(2, '0');
  const day = String((i % 28) + 1).padStart(2, '0');
  return {
    sourceUrl: `https://github.com/${owner}/work-${i}`,
    date: `2025-${month}-${day}`,
    model: `Bench-Model-${i % models}`,
    author: 'Bench Owner',
    format: 'svg',
    title: { zh: `基准作品第${i}号`, en: `Bench work number ${i}` },
    notes: { zh: '发布器基准测试的作品。', en: 'A work of the publisher benchmark.' },
    media: [...urls],
  };
}

/** The address of preview i on the loopback server at host. */
export const previewUrl = (host: string, index: number): string => `http://${host}/preview-${index}.png`;

/** Stops the loopback server, dropping kept-alive connections. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
