/** Generative preview plates for demo works: one deterministic, standalone SVG per work, safe for librsvg. */
import { seededRandom } from '../random.ts';
import { between, f, hsl, HEIGHT, intBetween, linearGradient, WIDTH } from './painters/kit.ts';
import type { Painter, Point, Rng } from './painters/kit.ts';
import { drawPelicanOnBicycle } from './painters/pelican-bicycle.ts';
import { drawSnakeGame } from './painters/snake-game.ts';

/** A work's fields that the preview art depends on. */
export interface PreviewArtInput { format: 'svg' | 'animation' | '3d' | 'game' | 'video'; title: string; seed: number }

/** FNV-1a hash of a string, mixed into the seed so equal seeds with different titles still differ. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** animation: overlapping motion trails ending in bright, ghosted discs. */
function drawAnimationPlate(rng: Rng, baseHue: number, id: string): string {
  const hue = 200 + (baseHue % 130);
  const defs = linearGradient(`${id}-bg`, [hsl(hue, 40, 11), hsl(hue + 40, 45, 24)], false);
  const parts: string[] = [`<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#${id}-bg)"/>`];
  for (let ring = 1; ring <= 3; ring += 1) parts.push(`<circle cx="400" cy="300" r="${ring * 70}" fill="none" stroke="${hsl(hue + 40, 30, 60)}" stroke-opacity="0.12" stroke-width="2"/>`);
  const count = intBetween(rng, 4, 6);
  for (let i = 0; i < count; i += 1) {
    const color = hsl(hue + 120 + i * between(rng, 30, 55), 80, between(rng, 58, 70));
    const p: Point[] = [
      [between(rng, 100, 260), between(rng, 120, 480)],
      [between(rng, 200, 500), between(rng, 90, 510)],
      [between(rng, 300, 600), between(rng, 90, 510)],
      [between(rng, 540, 690), between(rng, 130, 470)],
    ];
    const at = (t: number): Point => {
      const u = 1 - t;
      const coefficients = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
      return p.reduce<Point>(([x, y], [px, py], k) => [x + px * (coefficients[k] ?? 0), y + py * (coefficients[k] ?? 0)], [0, 0]);
    };
    const d = p.map(([x, y], k) => `${k === 0 ? 'M' : k === 1 ? 'C' : ''}${f(x)} ${f(y)}`).join(' ');
    const width = between(rng, 14, 26);
    parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-opacity="0.18" stroke-width="${f(width * 2)}" stroke-linecap="round"/>`);
    parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="3" stroke-dasharray="${f(between(rng, 6, 20))} ${f(between(rng, 8, 18))}" stroke-linecap="round"/>`);
    for (let g = 1; g <= 5; g += 1) {
      const [x, y] = at(0.55 + g * 0.09);
      parts.push(`<circle cx="${f(x)}" cy="${f(y)}" r="${f(width * (0.4 + g * 0.12))}" fill="${color}" fill-opacity="${f(g * 0.18)}"/>`);
    }
    const [hx, hy] = at(1);
    parts.push(`<circle cx="${f(hx)}" cy="${f(hy)}" r="${f(width * 0.45)}" fill="#ffffff" fill-opacity="0.85"/>`);
  }
  return `<defs>${defs}</defs>${parts.join('')}`;
}

/** 3d: an isometric stack of cubes with three-tone shading. */
function draw3dPlate(rng: Rng, hue: number, id: string): string {
  const n = intBetween(rng, 4, 5);
  const maxHeight = 3;
  const a = 235 / n;
  const h = a * 1.15;
  const top = 300 - (n * a + maxHeight * h) / 2 + 10;
  const oy = top + maxHeight * h;
  const project = (x: number, y: number, z: number): string => `${f(400 + (x - y) * a)} ${f(oy + ((x + y) * a) / 2 - z * h)}`;
  const hues = [hue, hue + between(rng, 25, 50), hue + 180];
  const parts: string[] = [
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#${id}-bg)"/>`,
    `<ellipse cx="420" cy="${f(oy + n * a * 0.5 + 24)}" rx="${f(n * a * 1.08)}" ry="${f(n * a * 0.56)}" fill="${hsl(hue + 180, 25, 30)}" fill-opacity="0.16"/>`,
    `<path d="M${project(0, 0, 0)}L${project(n, 0, 0)}L${project(n, n, 0)}L${project(0, n, 0)}Z" fill="${hsl(hue + 180, 20, 78)}" stroke="${hsl(hue + 180, 20, 60)}" stroke-width="2"/>`,
  ];
  const cells: { x: number; y: number; height: number; tone: number }[] = [];
  for (let i = 0; i < n * n; i += 1) {
    const [x, y] = [Math.floor(i / n), i % n];
    const centre = 1 - Math.hypot(x - (n - 1) / 2, y - (n - 1) / 2) / n;
    cells.push({ x, y, height: Math.min(maxHeight, Math.floor(rng() * 2.2 + centre * 2.4)), tone: rng() < 0.7 ? 0 : rng() < 0.6 ? 1 : 2 });
  }
  cells.sort((p, q) => p.x + p.y - (q.x + q.y) || p.x - q.x);
  for (const { x, y, height, tone } of cells) {
    const cubeHue = hues[tone] ?? hue;
    for (let z = 0; z < height; z += 1) {
      const face = (points: [number, number, number][], lightness: number): string =>
        `<path d="M${points.map(([px, py, pz]) => project(px, py, pz)).join('L')}Z" fill="${hsl(cubeHue, 55, lightness)}" stroke="${hsl(cubeHue, 45, 22)}" stroke-width="1.5" stroke-linejoin="round"/>`;
      parts.push(
        face([[x, y, z + 1], [x + 1, y, z + 1], [x + 1, y + 1, z + 1], [x, y + 1, z + 1]], 74),
        face([[x, y + 1, z], [x + 1, y + 1, z], [x + 1, y + 1, z + 1], [x, y + 1, z + 1]], 54),
        face([[x + 1, y, z], [x + 1, y + 1, z], [x + 1, y + 1, z + 1], [x + 1, y, z + 1]], 36),
      );
    }
  }
  const defs = linearGradient(`${id}-bg`, [hsl(hue + 180, 30, 95), hsl(hue + 180, 28, 84)]);
  return `<defs>${defs}</defs>${parts.join('')}`;
}

/** video: a tilted film strip whose frames follow a sun across a horizon. */
function drawVideoPlate(rng: Rng, hue: number, id: string): string {
  const [frames, frameWidth, gap] = [3, 190, 24];
  const stripWidth = frames * frameWidth + (frames + 1) * gap;
  const sx = 400 - stripWidth / 2;
  const defs: string[] = [linearGradient(`${id}-bg`, [hsl(hue, 20, 93), hsl(hue, 22, 82)])];
  const parts: string[] = [`<rect x="${f(sx)}" y="180" width="${f(stripWidth)}" height="240" rx="6" fill="#1b1b1f"/>`];
  for (let x = sx + 14; x < sx + stripWidth - 14; x += 30) parts.push(`<rect x="${f(x)}" y="190" width="14" height="12" rx="3" fill="${hsl(hue, 20, 88)}"/><rect x="${f(x)}" y="398" width="14" height="12" rx="3" fill="${hsl(hue, 20, 88)}"/>`);
  const hills = [between(rng, 0.55, 0.7), between(rng, 0.62, 0.75), between(rng, 0.7, 0.8)];
  for (let i = 0; i < frames; i += 1) {
    const x = sx + gap + i * (frameWidth + gap);
    const t = i / (frames - 1);
    const skyHue = hue + 200 - t * between(rng, 140, 180);
    defs.push(linearGradient(`${id}-sky${i}`, [hsl(skyHue, 55, 30 + t * 10), hsl(skyHue + 40, 75, 60 + t * 10), hsl(skyHue + 60, 85, 78)]));
    defs.push(`<clipPath id="${id}-clip${i}"><rect x="${f(x)}" y="215" width="${frameWidth}" height="170"/></clipPath>`);
    const sunX = x + 40 + t * 110;
    const sunY = 215 + 170 * (0.35 + 0.25 * Math.sin((t + 0.2) * Math.PI));
    const layers = hills.map((level, k) => {
      const base = 215 + 170 * level;
      const wave = (n: number): string => f(base - Math.sin(n * 1.7 + k * 2 + i * 0.6) * 14);
      return `<path d="M${f(x)} ${wave(0)}Q${f(x + 50)} ${f(base - 30)} ${f(x + 95)} ${wave(1)}T${f(x + frameWidth)} ${wave(2)}V385H${f(x)}Z" fill="${hsl(hue + 150 + k * 15, 30, 34 - k * 9)}"/>`;
    });
    parts.push(`<g clip-path="url(#${id}-clip${i})"><rect x="${f(x)}" y="215" width="${frameWidth}" height="170" fill="url(#${id}-sky${i})"/><circle cx="${f(sunX)}" cy="${f(sunY)}" r="20" fill="${hsl(45, 95, 88)}"/>${layers.join('')}</g>`);
  }
  const angle = between(rng, -6, 6);
  return `<defs>${defs.join('')}</defs><rect width="${WIDTH}" height="${HEIGHT}" fill="url(#${id}-bg)"/><g transform="rotate(${f(angle)} 400 300)">${parts.join('')}</g>`;
}

const PAINTERS: Record<PreviewArtInput['format'], Painter> = {
  svg: drawPelicanOnBicycle, animation: drawAnimationPlate, '3d': draw3dPlate, game: drawSnakeGame, video: drawVideoPlate,
};

/** Returns a complete standalone SVG document (800×600) drawing a distinctive generative still for a demo work. */
export function renderPreviewArt(input: PreviewArtInput): string {
  const seed = (input.seed ^ hashString(input.title)) >>> 0;
  const rng = seededRandom(seed);
  const hue = rng() * 360;
  const id = `pa${seed.toString(36)}`;
  const body = PAINTERS[input.format](rng, hue, id);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${body}</svg>\n`;
}
