import { between, f, hsl, HEIGHT, intBetween, polyline, WIDTH } from './kit.ts';
import type { Point, Rng } from './kit.ts';

/** A pelican on a bicycle: a bold flat line drawing on warm paper, facing left or right. */
export function drawPelicanOnBicycle(rng: Rng, hue: number): string {
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
  parts.push(`<path d="${polyline([rear, seat, crank, rear])}${polyline([seat, bar, front])}${polyline([crank, bar])}" fill="none" stroke="${frame}" stroke-width="10" stroke-linejoin="round" stroke-linecap="round"/>`);
  const body: Point = [seat[0] + 5, seat[1] - 50];
  parts.push(`<path d="M${f(body[0] + 40)} ${f(body[1] - 20)}Q${f(head[0] - 20)} ${f(head[1] + 60)} ${f(head[0])} ${f(head[1])}" fill="none" stroke="${ink}" stroke-width="22" stroke-linecap="round"/>`);
  parts.push(`<path d="${polyline([[body[0], body[1] + 30], crank])}" stroke="${ink}" stroke-width="7" stroke-linecap="round"/>`);
  parts.push(`<ellipse cx="${f(body[0])}" cy="${f(body[1])}" rx="72" ry="46" fill="#fffaf0" stroke="${ink}" stroke-width="8"/>`);
  parts.push(`<path d="M${f(body[0] - 50)} ${f(body[1] - 5)}Q${f(body[0])} ${f(body[1] - 40)} ${f(body[0] + 35)} ${f(body[1] + 10)}Q${f(body[0] - 10)} ${f(body[1] + 20)} ${f(body[0] - 50)} ${f(body[1] - 5)}Z" fill="${accent}" stroke="${ink}" stroke-width="5"/>`);
  parts.push(`<path d="M${f(head[0] + 15)} ${f(head[1] - 8)}L${f(head[0] + 140)} ${f(head[1] + 22)}Q${f(head[0] + 70)} ${f(head[1] + 70)} ${f(head[0] + 8)} ${f(head[1] + 22)}Z" fill="${beak}" stroke="${ink}" stroke-width="6" stroke-linejoin="round"/>`);
  parts.push(`<circle cx="${f(head[0])}" cy="${f(head[1])}" r="28" fill="#fffaf0" stroke="${ink}" stroke-width="8"/><circle cx="${f(head[0] + 6)}" cy="${f(head[1] - 6)}" r="6" fill="${ink}"/>`);
  const flip = rng() < 0.5 ? ` transform="translate(${WIDTH} 0) scale(-1 1)"` : '';
  return `<rect width="${WIDTH}" height="${HEIGHT}" fill="${hsl(between(rng, 30, 48), 55, 91)}"/><g${flip}>${parts.join('')}</g>`;
}
