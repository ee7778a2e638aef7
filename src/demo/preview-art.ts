/** Generative preview plates for demo works: one deterministic, standalone SVG per work, safe for librsvg. */
import { seededRandom } from '../random.ts';

/** A work's fields that the preview art depends on. */
export interface PreviewArtInput { format: 'svg' | 'animation' | '3d' | 'game' | 'video'; title: string; seed: number }

type Rng = () => number;
type Point = [number, number];

const WIDTH = 800;
const HEIGHT = 600;


/** FNV-1a hash of a string, mixed into the seed so equal seeds with different titles still differ. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const between = (rng: Rng, min: number, max: number): number => min + (max - min) * rng();
const intBetween = (rng: Rng, min: number, max: number): number => Math.floor(between(rng, min, max + 1));

/** A number written with at most one decimal. */
const f = (value: number): string => String(Math.round(value * 10) / 10);

/** An HSL colour as #rrggbb (hue in degrees, saturation and lightness in percent). */
function hsl(hue: number, saturation: number, lightness: number): string {
  const h = ((hue % 360) + 360) % 360;
  const l = lightness / 100;
  const a = (saturation / 100) * Math.min(l, 1 - l);
  const channel = (n: number): string => {
    const k = (n + h / 30) % 12;
    return Math.round((l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))) * 255).toString(16).padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

function linearGradient(id: string, stops: string[], vertical = true): string {
  const end = vertical ? 'x2="0" y2="1"' : 'x2="1" y2="1"';
  const body = stops.map((color, i) => `<stop offset="${f((i / Math.max(1, stops.length - 1)) * 100)}%" stop-color="${color}"/>`).join('');
  return `<linearGradient id="${id}" x1="0" y1="0" ${end}>${body}</linearGradient>`;
}

/** svg: a bold flat line drawing of a bird on a bicycle, on warm paper. */
function drawSvgPlate(rng: Rng, hue: number): string {
  const ink = hsl(hue, 30, 16);
  const accent = hsl(hue + between(rng, 150, 210), 65, 62);
  const frame = hsl(hue, 60, 45);
  const beak = hsl(between(rng, 20, 45), 90, 55);
  const r = between(rng, 60, 78);
  const d = between(rng, 110, 135);
  const cx = between(rng, 380, 420);
  const hubY = 400;
  const rear: Point = [cx - d, hubY];
  const front: Point = [cx + d, hubY];
  const seat: Point = [cx - d * 0.3, hubY - r * 1.1];
  const crank: Point = [cx - d * 0.1, hubY];
  const bar: Point = [cx + d * 0.7, hubY - r * 1.25];
  const head: Point = [seat[0] + between(rng, 50, 75), seat[1] - between(rng, 130, 155)];
  const parts: string[] = [`<circle cx="${f(between(rng, 470, 600))}" cy="${f(between(rng, 170, 220))}" r="${f(between(rng, 80, 110))}" fill="${accent}"/>`];
  for (let i = intBetween(rng, 3, 6); i > 0; i -= 1) parts.push(`<circle cx="${f(between(rng, 120, 680))}" cy="${f(between(rng, 100, 180))}" r="${f(between(rng, 5, 12))}" fill="${i % 2 ? frame : accent}"/>`);
  parts.push(`<path d="M110 ${f(hubY + r + 6)}H690" stroke="${ink}" stroke-width="6" stroke-linecap="round"/>`);
  for (const [x, y] of [rear, front]) {
    const spokes = [0, 1, 2, 3].map((k) => {
      const a = (k * Math.PI) / 4 + rng() * 0.3;
      return `M${f(x - Math.cos(a) * r)} ${f(y - Math.sin(a) * r)}L${f(x + Math.cos(a) * r)} ${f(y + Math.sin(a) * r)}`;
    });
    parts.push(`<path d="${spokes.join('')}" stroke="${ink}" stroke-width="3" opacity="0.5"/>`);
    parts.push(`<circle cx="${f(x)}" cy="${f(y)}" r="${f(r)}" fill="none" stroke="${ink}" stroke-width="11"/>`);
  }
  const line = (points: Point[]): string => points.map(([x, y], i) => `${i ? 'L' : 'M'}${f(x)} ${f(y)}`).join('');
  parts.push(`<path d="${line([rear, seat, crank, rear])}${line([seat, bar, front])}${line([crank, bar])}" fill="none" stroke="${frame}" stroke-width="10" stroke-linejoin="round" stroke-linecap="round"/>`);
  const body: Point = [seat[0] + 5, seat[1] - 50];
  parts.push(`<path d="M${f(body[0] + 40)} ${f(body[1] - 20)}Q${f(head[0] - 20)} ${f(head[1] + 60)} ${f(head[0])} ${f(head[1])}" fill="none" stroke="${ink}" stroke-width="22" stroke-linecap="round"/>`);
  parts.push(`<path d="${line([[body[0], body[1] + 30], crank])}" stroke="${ink}" stroke-width="7" stroke-linecap="round"/>`);
  parts.push(`<ellipse cx="${f(body[0])}" cy="${f(body[1])}" rx="72" ry="46" fill="#fffaf0" stroke="${ink}" stroke-width="8"/>`);
  parts.push(`<path d="M${f(body[0] - 50)} ${f(body[1] - 5)}Q${f(body[0])} ${f(body[1] - 40)} ${f(body[0] + 35)} ${f(body[1] + 10)}Q${f(body[0] - 10)} ${f(body[1] + 20)} ${f(body[0] - 50)} ${f(body[1] - 5)}Z" fill="${accent}" stroke="${ink}" stroke-width="5"/>`);
  parts.push(`<path d="M${f(head[0] + 15)} ${f(head[1] - 8)}L${f(head[0] + 140)} ${f(head[1] + 22)}Q${f(head[0] + 70)} ${f(head[1] + 70)} ${f(head[0] + 8)} ${f(head[1] + 22)}Z" fill="${beak}" stroke="${ink}" stroke-width="6" stroke-linejoin="round"/>`);
  parts.push(`<circle cx="${f(head[0])}" cy="${f(head[1])}" r="28" fill="#fffaf0" stroke="${ink}" stroke-width="8"/><circle cx="${f(head[0] + 6)}" cy="${f(head[1] - 6)}" r="6" fill="${ink}"/>`);
  const flip = rng() < 0.5 ? ` transform="translate(${WIDTH} 0) scale(-1 1)"` : '';
  return `<rect width="${WIDTH}" height="${HEIGHT}" fill="${hsl(between(rng, 30, 48), 55, 91)}"/><g${flip}>${parts.join('')}</g>`;
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

/** game: a tiled playfield with a snake, walls, food and a pixel score. */
function drawGamePlate(rng: Rng, hue: number): string {
  const cols = [16, 20, 24][intBetween(rng, 0, 2)] ?? 20;
  const rows = (cols * 3) / 4;
  const size = 560 / cols;
  const [ox, oy] = [120, 100];
  const cell = (x: number, y: number, fill: string, inset: number, radius: number): string =>
    `<rect x="${f(ox + x * size + inset)}" y="${f(oy + y * size + inset)}" width="${f(size - 2 * inset)}" height="${f(size - 2 * inset)}" rx="${f(radius)}" fill="${fill}"/>`;
  const grid: string[] = [];
  for (let x = 0; x <= cols; x += 1) grid.push(`M${f(ox + x * size)} ${oy}V${f(oy + rows * size)}`);
  for (let y = 0; y <= rows; y += 1) grid.push(`M${ox} ${f(oy + y * size)}H${f(ox + cols * size)}`);
  const parts: string[] = [
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="${hsl(hue, 25, 9)}"/>`,
    `<rect x="${ox - 10}" y="${oy - 10}" width="${f(cols * size + 20)}" height="${f(rows * size + 20)}" rx="10" fill="${hsl(hue, 30, 22)}"/>`,
    `<rect x="${ox}" y="${oy}" width="${f(cols * size)}" height="${f(rows * size)}" fill="${hsl(hue, 30, 14)}"/>`,
    `<path d="${grid.join('')}" stroke="${hsl(hue, 30, 24)}" stroke-width="1"/>`,
  ];
  const used = new Set<string>();
  const wallColor = hsl(hue + 200, 20, 45);
  for (let w = intBetween(rng, 2, 4); w > 0; w -= 1) {
    const horizontal = rng() < 0.5;
    let [x, y] = [intBetween(rng, 1, cols - 6), intBetween(rng, 1, rows - 6)];
    for (let k = intBetween(rng, 3, 5); k > 0; k -= 1) {
      used.add(`${x},${y}`);
      parts.push(cell(x, y, wallColor, 1, 2));
      [x, y] = horizontal ? [x + 1, y] : [x, y + 1];
    }
  }
  const steps: Point[] = [[1, 0], [0, 1], [-1, 0], [0, -1]];
  const target = intBetween(rng, 18, 32);
  let snake: Point[] = [];
  for (let attempt = 0; attempt < 12 && snake.length < target; attempt += 1) {
    const walk: Point[] = [];
    let [x, y] = [intBetween(rng, 3, cols - 4), intBetween(rng, 2, rows - 3)];
    let dir = intBetween(rng, 0, 3);
    while (walk.length < target && !used.has(`${x},${y}`)) {
      walk.push([x, y]);
      const options = [dir, (dir + 1) % 4, (dir + 3) % 4].filter((d) => {
        const [nx, ny] = [x + (steps[d]?.[0] ?? 0), y + (steps[d]?.[1] ?? 0)];
        const touches = walk.some(([wx, wy]) => Math.abs(wx - nx) + Math.abs(wy - ny) <= 1 && (wx !== x || wy !== y));
        return nx >= 1 && nx < cols - 1 && ny >= 1 && ny < rows - 1 && !used.has(`${nx},${ny}`) && !touches;
      });
      if (options.length === 0) break;
      dir = rng() < 0.65 && options[0] === dir ? dir : (options[intBetween(rng, 0, options.length - 1)] ?? dir);
      const [sx, sy] = steps[dir] ?? [1, 0];
      [x, y] = [x + sx, y + sy];
    }
    if (walk.length > snake.length) snake = walk;
  }
  for (const [sx, sy] of snake) used.add(`${sx},${sy}`);
  const snakeHue = hue + between(rng, 90, 150);
  snake.forEach(([sx, sy], i) => parts.push(cell(sx, sy, hsl(snakeHue, 70, 32 + (36 * i) / snake.length), 1.5, size * 0.25)));
  const [hx, hy] = snake[snake.length - 1] ?? [0, 0];
  parts.push(`<circle cx="${f(ox + (hx + 0.35) * size)}" cy="${f(oy + (hy + 0.35) * size)}" r="${f(size * 0.1)}" fill="#10131a"/><circle cx="${f(ox + (hx + 0.65) * size)}" cy="${f(oy + (hy + 0.35) * size)}" r="${f(size * 0.1)}" fill="#10131a"/>`);
  for (let tries = 0; tries < 50; tries += 1) {
    const [fx, fy] = [intBetween(rng, 0, cols - 1), intBetween(rng, 0, rows - 1)];
    if (used.has(`${fx},${fy}`)) continue;
    parts.push(`<circle cx="${f(ox + (fx + 0.5) * size)}" cy="${f(oy + (fy + 0.5) * size)}" r="${f(size * 0.32)}" fill="${hsl(snakeHue + 160, 85, 60)}"/>`);
    break;
  }
  for (let i = intBetween(rng, 3, 7); i > 0; i -= 1) parts.push(`<rect x="${f(ox + (i - 1) * 18)}" y="62" width="12" height="12" fill="${hsl(snakeHue, 70, 62)}"/>`);
  for (let i = 0; i < 3; i += 1) parts.push(`<rect x="${f(ox + cols * size - 12 - i * 18)}" y="62" width="12" height="12" fill="${hsl(hue, 80, 60)}" fill-opacity="${i < 2 ? 1 : 0.3}"/>`);
  return parts.join('');
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

const PAINTERS: Record<PreviewArtInput['format'], (rng: Rng, hue: number, id: string) => string> = {
  svg: drawSvgPlate, animation: drawAnimationPlate, '3d': draw3dPlate, game: drawGamePlate, video: drawVideoPlate,
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
