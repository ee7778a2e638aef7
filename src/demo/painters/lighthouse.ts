import { between, f, hsl, HEIGHT, intBetween, linearGradient, polyline, WIDTH } from './kit.ts';
import type { Point, Rng } from './kit.ts';

const SEA_LEVEL = 400;

/** A tapering tower in red and white bands, with a gallery, a lit lantern room, a dome and two beams. */
function tower(x: number, foot: number, height: number, id: string, band: string): string {
  const [bottomHalf, topHalf] = [46, 30];
  const top = foot - height;
  const outline: Point[] = [[x - bottomHalf, foot], [x - topHalf, top], [x + topHalf, top], [x + bottomHalf, foot]];
  const bands: string[] = [];
  for (let k = 0; k < 4; k += 1) bands.push(`<rect x="${f(x - bottomHalf)}" y="${f(top + ((2 * k + 1) * height) / 8)}" width="${2 * bottomHalf}" height="${f(height / 8)}" fill="${band}"/>`);
  const lampTop = top - 44;
  return `<clipPath id="${id}-tower"><path d="${polyline(outline)}Z"/></clipPath>`
    + `<path d="M${f(x)} ${f(lampTop + 18)}L${f(x - 420)} ${f(lampTop - 40)}L${f(x - 420)} ${f(lampTop + 90)}ZM${f(x)} ${f(lampTop + 18)}L${f(x + 420)} ${f(lampTop - 60)}L${f(x + 420)} ${f(lampTop + 70)}Z" fill="#fff6c8" fill-opacity="0.28"/>`
    + `<path d="${polyline(outline)}Z" fill="#f7f4ee"/><g clip-path="url(#${id}-tower)">${bands.join('')}</g>`
    + `<path d="${polyline(outline)}Z" fill="none" stroke="#2a2a30" stroke-width="3"/>`
    + `<rect x="${f(x - 42)}" y="${f(top - 8)}" width="84" height="12" fill="#2a2a30"/>`
    + `<rect x="${f(x - 22)}" y="${f(lampTop)}" width="44" height="36" fill="#ffe27a" stroke="#2a2a30" stroke-width="4"/>`
    + `<path d="M${f(x - 28)} ${f(lampTop)}Q${f(x)} ${f(lampTop - 40)} ${f(x + 28)} ${f(lampTop)}Z" fill="${band}" stroke="#2a2a30" stroke-width="3"/>`;
}

/** A lighthouse on a rocky point over the sea, at dusk: banded tower, lit lantern, beams, waves. */
export function drawLighthouse(rng: Rng, hue: number, id: string): string {
  const skyHue = 220 + (hue % 40);
  const defs = [
    linearGradient(`${id}-sky`, [hsl(skyHue, 45, 22), hsl(skyHue + 60, 40, 48), hsl(between(rng, 15, 35), 80, 70)]),
    linearGradient(`${id}-sea`, [hsl(skyHue - 10, 45, 34), hsl(skyHue - 10, 50, 18)]),
  ];
  const parts: string[] = [`<rect width="${WIDTH}" height="${SEA_LEVEL}" fill="url(#${id}-sky)"/>`, `<rect y="${SEA_LEVEL}" width="${WIDTH}" height="${HEIGHT - SEA_LEVEL}" fill="url(#${id}-sea)"/>`];
  for (let i = intBetween(rng, 8, 16); i > 0; i -= 1) parts.push(`<circle cx="${f(between(rng, 20, 780))}" cy="${f(between(rng, 15, 170))}" r="${f(between(rng, 1.2, 2.6))}" fill="#fffbe8" fill-opacity="0.8"/>`);
  const left = rng() < 0.5;
  const x = left ? between(rng, 200, 260) : between(rng, 540, 600);
  const rockTop = SEA_LEVEL - between(rng, 40, 60);
  const rockSide = left ? -1 : 1;
  const rock: Point[] = [[x - rockSide * 230, SEA_LEVEL + 20], [x - rockSide * 120, rockTop + 20], [x - rockSide * 60, rockTop], [x + rockSide * 50, rockTop - 6], [x + rockSide * 130, rockTop + 12], [x + rockSide * 260, SEA_LEVEL - 10], [x + rockSide * 420, SEA_LEVEL + 30]];
  parts.push(tower(x, rockTop + 4, between(rng, 210, 250), id, hsl(between(rng, -8, 8), 70, 46)));
  parts.push(`<path d="${polyline(rock)}Z" fill="${hsl(skyHue, 12, 20)}" stroke="${hsl(skyHue, 10, 12)}" stroke-width="4" stroke-linejoin="round"/>`);
  for (let i = intBetween(rng, 5, 8); i > 0; i -= 1) {
    const [waveX, waveY] = [between(rng, 30, 700), between(rng, SEA_LEVEL + 50, HEIGHT - 30)];
    parts.push(`<path d="M${f(waveX)} ${f(waveY)}q20 -12 40 0t40 0" fill="none" stroke="#e8f1f8" stroke-opacity="0.55" stroke-width="3" stroke-linecap="round"/>`);
  }
  return `<defs>${defs.join('')}</defs>${parts.join('')}`;
}
