import { between, f, HEIGHT, intBetween, WIDTH } from './kit.ts';
import type { Rng } from './kit.ts';

interface Peak { x: number; height: number; width: number }

/** A ridge's outline: the tallest of its peaks (bell-shaped) at every 10 px, closed along the bottom. */
function ridgePath(base: number, peaks: Peak[]): string {
  const points: string[] = [];
  for (let x = 0; x <= WIDTH; x += 10) {
    const rise = Math.max(...peaks.map((peak) => peak.height * Math.exp(-(((x - peak.x) / peak.width) ** 2))));
    points.push(`${x ? 'L' : 'M'}${x} ${f(base - rise)}`);
  }
  return `${points.join('')}L${WIDTH} ${HEIGHT}L0 ${HEIGHT}Z`;
}

/** A gradient from ink at the ridge to nothing below it, as a wash of diluted ink fades. */
function washGradient(id: string, ink: string, opacity: number): string {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0%" stop-color="${ink}" stop-opacity="${f(opacity)}"/><stop offset="55%" stop-color="${ink}" stop-opacity="${f(opacity * 0.4)}"/><stop offset="100%" stop-color="${ink}" stop-opacity="0"/></linearGradient>`;
}

/** A small boat with a fisherman in a conical hat, seen from the side. */
function boat(x: number, y: number, ink: string): string {
  return `<path d="M${f(x - 60)} ${f(y - 8)}Q${f(x)} ${f(y + 22)} ${f(x + 64)} ${f(y - 12)}Q${f(x)} ${f(y + 4)} ${f(x - 60)} ${f(y - 8)}Z" fill="${ink}"/>`
    + `<path d="M${f(x + 8)} ${f(y - 2)}L${f(x + 14)} ${f(y - 30)}L${f(x + 22)} ${f(y - 2)}Z" fill="${ink}"/>`
    + `<path d="M${f(x)} ${f(y - 30)}L${f(x + 15)} ${f(y - 44)}L${f(x + 32)} ${f(y - 30)}Z" fill="${ink}"/>`
    + `<path d="M${f(x - 30)} ${f(y - 62)}L${f(x - 4)} ${f(y + 12)}" stroke="${ink}" stroke-width="3" stroke-linecap="round"/>`;
}

/** An ink-wash landscape: ridges of fading grey ink on rice paper, still water with a boat, a red seal. */
export function drawInkLandscape(rng: Rng, _hue: number, id: string): string {
  const ink = '#1e2226';
  const defs: string[] = [];
  const parts: string[] = [`<rect width="${WIDTH}" height="${HEIGHT}" fill="#f2ecdf"/>`];
  if (rng() < 0.6) parts.push(`<circle cx="${f(between(rng, 120, 680))}" cy="${f(between(rng, 80, 140))}" r="${f(between(rng, 28, 40))}" fill="#c9beaa" fill-opacity="0.6"/>`);
  const layers = [
    { base: between(rng, 300, 330), height: [140, 220], opacity: 0.3 },
    { base: between(rng, 350, 380), height: [90, 170], opacity: 0.55 },
    { base: between(rng, 395, 415), height: [40, 110], opacity: 0.85 },
  ];
  layers.forEach((layer, k) => {
    const peaks = Array.from({ length: intBetween(rng, 2, 3) }, (): Peak => ({ x: between(rng, 40, 760), height: between(rng, layer.height[0] ?? 0, layer.height[1] ?? 0), width: between(rng, 70, 150) }));
    defs.push(washGradient(`${id}-wash${k}`, ink, layer.opacity));
    parts.push(`<path d="${ridgePath(layer.base, peaks)}" fill="url(#${id}-wash${k})"/>`);
  });
  parts.push(`<rect y="430" width="${WIDTH}" height="${HEIGHT - 430}" fill="#f2ecdf"/>`);
  for (let i = intBetween(rng, 5, 8); i > 0; i -= 1) {
    const [x, y] = [between(rng, 60, 680), between(rng, 450, 560)];
    parts.push(`<path d="M${f(x)} ${f(y)}h${f(between(rng, 40, 110))}" stroke="${ink}" stroke-opacity="0.35" stroke-width="2" stroke-linecap="round"/>`);
  }
  const boatX = between(rng, 220, 580);
  parts.push(boat(boatX, between(rng, 470, 500), ink));
  const sealX = rng() < 0.5 ? 60 : 706;
  parts.push(`<rect x="${sealX}" y="60" width="34" height="44" rx="3" fill="#b3261e"/><path d="M${sealX + 9} 72h16M${sealX + 9} 82h16M${sealX + 9} 92h16" stroke="#f2ecdf" stroke-width="3"/>`);
  return `<defs>${defs.join('')}</defs>${parts.join('')}`;
}
