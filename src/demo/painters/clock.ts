import { between, f, hsl, HEIGHT, intBetween, WIDTH } from './kit.ts';
import type { Point, Rng } from './kit.ts';

const CENTRE: Point = [400, 300];

/** The point at a clock angle (degrees clockwise from twelve) and a distance from the centre. */
function onDial(degrees: number, distance: number): Point {
  const radians = (degrees * Math.PI) / 180;
  return [CENTRE[0] + Math.sin(radians) * distance, CENTRE[1] - Math.cos(radians) * distance];
}

/** A straight hand from a short tail behind the centre to its tip. */
function hand(degrees: number, length: number, tail: number, width: number, color: string): string {
  const [fromX, fromY] = onDial(degrees + 180, tail);
  const [toX, toY] = onDial(degrees, length);
  return `<path d="M${f(fromX)} ${f(fromY)}L${f(toX)} ${f(toY)}" stroke="${color}" stroke-width="${f(width)}" stroke-linecap="round"/>`;
}

/** An analog clock showing ten past ten (the time clock faces are shown at), round or square-cased, on a plain wall. */
export function drawClock(rng: Rng, hue: number): string {
  const radius = between(rng, 190, 215);
  const ink = hsl(hue, 25, 14);
  const caseColor = hsl(hue, between(rng, 35, 60), between(rng, 28, 42));
  const face = hsl(hue + 30, 30, 96);
  const parts: string[] = [`<rect width="${WIDTH}" height="${HEIGHT}" fill="${hsl(hue + 180, 20, between(rng, 80, 88))}"/>`];
  const square = rng() < 0.35;
  const casing = (offset: number, paint: string): string => square
    ? `<rect x="${f(CENTRE[0] - radius - 30 + offset)}" y="${f(CENTRE[1] - radius - 30 + offset)}" width="${f(2 * radius + 60)}" height="${f(2 * radius + 60)}" rx="40" ${paint}/>`
    : `<circle cx="${f(CENTRE[0] + offset)}" cy="${f(CENTRE[1] + offset)}" r="${f(radius + 26)}" ${paint}/>`;
  parts.push(casing(14, 'fill="#000000" fill-opacity="0.18"'), casing(0, `fill="${caseColor}"`));
  parts.push(`<circle cx="${CENTRE[0]}" cy="${CENTRE[1]}" r="${f(radius)}" fill="${face}" stroke="${hsl(hue, 20, 70)}" stroke-width="3"/>`);
  const ticks: string[] = [];
  for (let minute = 0; minute < 60; minute += 1) {
    const hour = minute % 5 === 0;
    const [x1, y1] = onDial(minute * 6, radius - (hour ? 38 : 16));
    const [x2, y2] = onDial(minute * 6, radius - 8);
    ticks.push(`<path d="M${f(x1)} ${f(y1)}L${f(x2)} ${f(y2)}" stroke="${ink}" stroke-width="${hour ? 11 : 3}" stroke-linecap="${hour ? 'butt' : 'round'}"/>`);
  }
  parts.push(ticks.join(''));
  parts.push(hand(305, radius * 0.52, 24, 18, ink), hand(60, radius * 0.8, 28, 11, ink));
  const secondColor = hsl(between(rng, -10, 20), 80, 48);
  parts.push(hand(intBetween(rng, 0, 59) * 6, radius * 0.86, 40, 4, secondColor));
  parts.push(`<circle cx="${CENTRE[0]}" cy="${CENTRE[1]}" r="13" fill="${secondColor}"/><circle cx="${CENTRE[0]}" cy="${CENTRE[1]}" r="5" fill="${face}"/>`);
  return parts.join('');
}
