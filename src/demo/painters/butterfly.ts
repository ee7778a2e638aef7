import { between, f, hsl, HEIGHT, intBetween, linearGradient, WIDTH } from './kit.ts';
import type { Rng } from './kit.ts';

/** The right half of a butterfly about x = 0 (body at the origin): fore wing and hind wing with spots. */
function rightWings(rng: Rng, wing: string, edge: string, spot: string): string {
  const fore = 'M4 -10C60 -150 200 -170 230 -120C250 -80 180 -20 8 0Z';
  const hind = 'M6 4C120 10 190 60 160 130C130 180 50 150 4 30Z';
  const spots = [
    `<circle cx="${f(between(rng, 140, 170))}" cy="${f(between(rng, -115, -95))}" r="${f(between(rng, 16, 24))}" fill="${spot}"/>`,
    `<circle cx="${f(between(rng, 90, 110))}" cy="${f(between(rng, 70, 90))}" r="${f(between(rng, 14, 20))}" fill="${spot}"/>`,
    `<circle cx="${f(between(rng, 190, 205))}" cy="${f(between(rng, -130, -120))}" r="6" fill="#ffffff"/>`,
  ];
  return `<path d="${hind}" fill="${wing}" stroke="${edge}" stroke-width="10" stroke-linejoin="round"/><path d="${fore}" fill="${wing}" stroke="${edge}" stroke-width="10" stroke-linejoin="round"/>${spots.join('')}`;
}

/** A symmetric butterfly in flat colours over a meadow: four spotted wings, a body and two antennae. */
export function drawButterfly(rng: Rng, hue: number, id: string): string {
  const wingHue = between(rng, 0, 360);
  const wing = hsl(wingHue, 85, 58);
  const edge = hsl(wingHue + 10, 40, 14);
  const spot = hsl(wingHue + between(rng, 120, 200), 80, 62);
  const defs = linearGradient(`${id}-sky`, [hsl(hue + 180, 50, 90), hsl(hue + 150, 45, 80)]);
  const parts: string[] = [`<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#${id}-sky)"/>`, `<rect y="500" width="${WIDTH}" height="100" fill="${hsl(110, 40, 55)}"/>`];
  for (let i = intBetween(rng, 10, 18); i > 0; i -= 1) {
    const x = between(rng, 10, 790);
    parts.push(`<path d="M${f(x)} 600Q${f(x - 6)} 540 ${f(x + between(rng, -20, 20))} ${f(between(rng, 470, 510))}" fill="none" stroke="${hsl(105, 45, 36)}" stroke-width="5" stroke-linecap="round"/>`);
  }
  for (let i = intBetween(rng, 3, 6); i > 0; i -= 1) parts.push(`<circle cx="${f(between(rng, 30, 770))}" cy="${f(between(rng, 510, 570))}" r="9" fill="${hsl(between(rng, 0, 360), 75, 70)}"/>`);
  const halves = rightWings(rng, wing, edge, spot);
  const body = `<ellipse cx="0" cy="10" rx="13" ry="95" fill="${edge}"/><circle cx="0" cy="-95" r="20" fill="${edge}"/>`
    + `<path d="M-6 -110Q-30 -180 -70 -200M6 -110Q30 -180 70 -200" fill="none" stroke="${edge}" stroke-width="5" stroke-linecap="round"/><circle cx="-70" cy="-200" r="8" fill="${edge}"/><circle cx="70" cy="-200" r="8" fill="${edge}"/>`;
  const [x, y, angle] = [between(rng, 380, 420), between(rng, 300, 320), between(rng, -12, 12)];
  return `<defs>${defs}</defs>${parts.join('')}<g transform="translate(${f(x)} ${f(y)}) rotate(${f(angle)})">${halves}<g transform="scale(-1 1)">${halves}</g>${body}</g>`;
}
