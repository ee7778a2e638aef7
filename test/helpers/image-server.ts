import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface ServedFile {
  status?: number;
  type: string;
  body: Buffer | string;
  /** Answers this long after the request arrived: a slow media host. */
  delayMs?: number;
}

/** A loopback HTTP server of the test's own that serves registered files (and counts hits). */
export class ImageServer {
  readonly files = new Map<string, ServedFile>();
  readonly hits = new Map<string, number>();
  private server: Server | undefined;
  host = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const file = this.files.get(path);
      if (!file) {
        response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
        return;
      }
      const answer = (): void => void response.writeHead(file.status ?? 200, { 'Content-Type': file.type }).end(file.body);
      if (file.delayMs) setTimeout(answer, file.delayMs);
      else answer();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.host = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  url(path: string): string {
    return `http://${this.host}${path}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** A deterministic line drawing on white, like a typical SVG work rendered to a preview; seeds give different works. */
export function lineDrawingSvg(seed: number, width = 600, height = 400): string {
  let state = seed * 9973 + 7;
  const random = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const strokes: string[] = [];
  for (let i = 0; i < 6 + Math.floor(random() * 6); i += 1) {
    const x = 80 + random() * (width - 160);
    const y = 60 + random() * (height - 120);
    if (random() < 0.4) strokes.push(`<circle cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" r="${(15 + random() * 60).toFixed(0)}" fill="none" stroke="#222" stroke-width="5"/>`);
    else strokes.push(`<path d="M${x.toFixed(0)} ${y.toFixed(0)} Q${(random() * width).toFixed(0)} ${(random() * height).toFixed(0)} ${(80 + random() * (width - 160)).toFixed(0)} ${(60 + random() * (height - 120)).toFixed(0)}" fill="none" stroke="#222" stroke-width="5"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${strokes.join('')}</svg>`;
}

/** The drawing as PNG bytes. */
export async function lineDrawingPng(seed: number): Promise<Buffer> {
  return sharp(Buffer.from(lineDrawingSvg(seed))).png().toBuffer();
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A small PNG whose header claims width × height pixels: a decompression bomb as a decoder first sees it. */
export async function claimedSizePng(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } }).png().toBuffer());
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}
