import { between, f, hsl, HEIGHT, intBetween, linearGradient, WIDTH } from './kit.ts';
import type { Rng } from './kit.ts';

const TANK = { left: 110, top: 110, right: 690, bottom: 470 };

/** A fish: an oval body, a forked tail, a fin and an eye, facing left or right. */
function fish(x: number, y: number, length: number, facingRight: boolean, body: string, fin: string): string {
  const half = length / 2;
  const height = length * 0.3;
  const mirror = facingRight ? '' : ` transform="translate(${f(2 * x)} 0) scale(-1 1)"`;
  return `<g${mirror}><path d="M${f(x - half + 4)} ${f(y)}L${f(x - half - length * 0.3)} ${f(y - height)}L${f(x - half - length * 0.22)} ${f(y)}L${f(x - half - length * 0.3)} ${f(y + height)}Z" fill="${fin}"/>`
    + `<ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(half)}" ry="${f(height)}" fill="${body}"/>`
    + `<path d="M${f(x - half * 0.2)} ${f(y - height * 0.9)}Q${f(x)} ${f(y - height * 1.7)} ${f(x + half * 0.3)} ${f(y - height * 0.8)}Z" fill="${fin}"/>`
    + `<circle cx="${f(x + half * 0.55)}" cy="${f(y - height * 0.2)}" r="${f(Math.max(2.5, length * 0.05))}" fill="#ffffff"/><circle cx="${f(x + half * 0.58)}" cy="${f(y - height * 0.2)}" r="${f(Math.max(1.5, length * 0.028))}" fill="#101418"/></g>`;
}

/** An aquarium on a stand: a glass tank of blue water with sand, pebbles, waving weed, fish and bubbles. */
export function drawAquarium(rng: Rng, hue: number, id: string): string {
  const { left, top, right, bottom } = TANK;
  const waterHue = 185 + (hue % 30);
  const defs = [linearGradient(`${id}-water`, [hsl(waterHue, 65, 62), hsl(waterHue + 15, 70, 34)])];
  const parts: string[] = [
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="${hsl(hue, 25, 88)}"/>`,
    `<rect y="${bottom + 30}" width="${WIDTH}" height="${HEIGHT - bottom - 30}" fill="${hsl(hue + 20, 30, 52)}"/>`,
    `<rect x="${left}" y="${top + 22}" width="${right - left}" height="${bottom - top - 22}" fill="url(#${id}-water)"/>`,
  ];
  const sandTop = bottom - 46;
  parts.push(`<path d="M${left} ${sandTop}Q${f(between(rng, 200, 320))} ${sandTop - 26} 400 ${sandTop - 6}T${right} ${sandTop - 4}V${bottom}H${left}Z" fill="${hsl(40, 55, 72)}"/>`);
  for (let i = intBetween(rng, 3, 5); i > 0; i -= 1) {
    const x = between(rng, left + 40, right - 40);
    const height = between(rng, 110, 220);
    parts.push(`<path d="M${f(x)} ${bottom - 20}q-24 ${f(-height / 4)} 0 ${f(-height / 2)}t0 ${f(-height / 2)}" fill="none" stroke="${hsl(between(rng, 95, 140), 55, 34)}" stroke-width="10" stroke-linecap="round"/>`);
  }
  for (let i = intBetween(rng, 5, 8); i > 0; i -= 1) parts.push(`<ellipse cx="${f(between(rng, left + 20, right - 20))}" cy="${f(between(rng, bottom - 22, bottom - 10))}" rx="${f(between(rng, 9, 18))}" ry="${f(between(rng, 6, 10))}" fill="${hsl(between(rng, 0, 360), 15, between(rng, 35, 60))}"/>`);
  const school = hsl(between(rng, 10, 50), 90, 56);
  for (let i = intBetween(rng, 5, 8); i > 0; i -= 1) {
    const alone = rng() < 0.3;
    const body = alone ? hsl(between(rng, 180, 330), 70, 58) : school;
    parts.push(fish(between(rng, left + 90, right - 90), between(rng, top + 70, sandTop - 50), between(rng, 50, 90), rng() < 0.5, body, hsl(alone ? between(rng, 0, 360) : 30, 80, 45)));
  }
  const bubbleX = between(rng, left + 60, right - 60);
  for (let k = 0; k < 6; k += 1) parts.push(`<circle cx="${f(bubbleX + Math.sin(k * 1.7) * 10)}" cy="${f(sandTop - 30 - k * 45)}" r="${f(4 + k * 1.4)}" fill="none" stroke="#f2fbff" stroke-opacity="0.85" stroke-width="2.5"/>`);
  parts.push(
    `<rect x="${left}" y="${top}" width="${right - left}" height="${bottom - top}" fill="none" stroke="${hsl(hue, 15, 22)}" stroke-width="12"/>`,
    `<rect x="${left - 14}" y="${top - 16}" width="${right - left + 28}" height="22" rx="4" fill="${hsl(hue, 15, 22)}"/>`,
    `<rect x="${left - 30}" y="${bottom + 6}" width="${right - left + 60}" height="${HEIGHT - bottom}" fill="${hsl(hue + 20, 35, 30)}"/>`,
    `<path d="M${left + 30} ${top + 40}L${left + 80} ${top + 40}L${left + 30} ${top + 140}Z" fill="#ffffff" fill-opacity="0.18"/>`,
  );
  return `<defs>${defs.join('')}</defs>${parts.join('')}`;
}
