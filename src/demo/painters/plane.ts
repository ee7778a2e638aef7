import { between, f, hsl, HEIGHT, intBetween, linearGradient, WIDTH } from './kit.ts';
import type { Rng } from './kit.ts';

/** A cloud of overlapping white discs. */
function cloud(x: number, y: number, size: number): string {
  const discs = [[-1.1, 0.2, 0.55], [-0.45, -0.25, 0.75], [0.35, -0.15, 0.65], [1.05, 0.2, 0.5]] as const;
  return discs.map(([dx, dy, r]) => `<circle cx="${f(x + dx * size)}" cy="${f(y + dy * size)}" r="${f(r * size)}" fill="#ffffff" fill-opacity="0.92"/>`).join('')
    + `<rect x="${f(x - 1.6 * size)}" y="${f(y + 0.1 * size)}" width="${f(3.2 * size)}" height="${f(0.55 * size)}" rx="${f(0.27 * size)}" fill="#ffffff" fill-opacity="0.92"/>`;
}

/** A side view of an airliner with its nose to the right at the origin's left: fuselage, wing, tail, engine, windows. */
function airliner(body: string, stripe: string, wing: string): string {
  const windows = Array.from({ length: 12 }, (_, k) => `<circle cx="${-150 + k * 22}" cy="-8" r="5" fill="#2b3a4a"/>`).join('');
  return `<path d="M-230 -30L-275 -120L-235 -120L-175 -30Z" fill="${stripe}"/>`
    + `<path d="M-250 -10L-300 -40L-270 -40L-205 -10Z" fill="${wing}"/>`
    + `<path d="M-250 -30H170Q250 -30 268 8Q250 30 170 30H-210Q-250 30 -262 0Z" fill="${body}"/>`
    + `<path d="M-250 6H230" stroke="${stripe}" stroke-width="8"/>${windows}`
    + `<path d="M212 -20Q236 -18 250 -4L222 -4Z" fill="#2b3a4a"/>`
    + `<path d="M-40 10L60 10L-60 110L-110 110Z" fill="${wing}"/>`
    + `<rect x="-45" y="30" width="70" height="28" rx="14" fill="${wing}"/>`;
}

/** An airliner climbing over a runway among clouds: a flight-simulator scene. */
export function drawPlane(rng: Rng, hue: number, id: string): string {
  const skyHue = 195 + (hue % 25);
  const defs = linearGradient(`${id}-sky`, [hsl(skyHue, 70, 52), hsl(skyHue - 5, 65, 84)]);
  const parts: string[] = [`<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#${id}-sky)"/>`];
  for (let i = intBetween(rng, 2, 4); i > 0; i -= 1) parts.push(cloud(between(rng, 60, 740), between(rng, 60, 300), between(rng, 35, 60)));
  parts.push(`<rect y="470" width="${WIDTH}" height="130" fill="${hsl(between(rng, 85, 120), 35, 45)}"/>`);
  parts.push(`<path d="M330 470H470L640 600H160Z" fill="#4b4f55"/><path d="M400 480V500M400 520V545M400 570V600" stroke="#f4f4f4" stroke-width="6"/>`);
  const climb = between(rng, -20, -8);
  const [x, y] = [between(rng, 380, 430), between(rng, 250, 300)];
  const flip = rng() < 0.5 ? ' scale(-1 1)' : '';
  const body = hsl(skyHue, 10, 96);
  const stripe = hsl(hue + 180, 70, 45);
  return `<defs>${defs}</defs>${parts.join('')}<g transform="translate(${f(x)} ${f(y)})${flip} rotate(${f(climb)})">${airliner(body, stripe, hsl(skyHue, 8, 70))}</g>`;
}
