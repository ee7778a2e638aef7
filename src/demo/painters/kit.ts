/** What every preview painter shares: the plate's size, seeded choices, numbers and colours written for SVG. */

/** A seeded generator of numbers in [0, 1). */
export type Rng = () => number;
export type Point = [number, number];

/**
 * Draws the body of one 800×600 plate (everything inside the <svg> element) from a seeded
 * generator, a base hue in degrees and an id prefix for its gradients and clip paths.
 */
export type Painter = (rng: Rng, hue: number, id: string) => string;

export const WIDTH = 800;
export const HEIGHT = 600;

export const between = (rng: Rng, min: number, max: number): number => min + (max - min) * rng();
export const intBetween = (rng: Rng, min: number, max: number): number => Math.floor(between(rng, min, max + 1));

/** A number written with at most one decimal. */
export const f = (value: number): string => String(Math.round(value * 10) / 10);

/** An HSL colour as #rrggbb (hue in degrees, saturation and lightness in percent). */
export function hsl(hue: number, saturation: number, lightness: number): string {
  const h = ((hue % 360) + 360) % 360;
  const l = lightness / 100;
  const a = (saturation / 100) * Math.min(l, 1 - l);
  const channel = (n: number): string => {
    const k = (n + h / 30) % 12;
    return Math.round((l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))) * 255).toString(16).padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/** A <linearGradient> whose stops are spread evenly, top to bottom (or corner to corner). */
export function linearGradient(id: string, stops: string[], vertical = true): string {
  const end = vertical ? 'x2="0" y2="1"' : 'x2="1" y2="1"';
  const body = stops.map((color, i) => `<stop offset="${f((i / Math.max(1, stops.length - 1)) * 100)}%" stop-color="${color}"/>`).join('');
  return `<linearGradient id="${id}" x1="0" y1="0" ${end}>${body}</linearGradient>`;
}

/** A path through points: M to the first, L to the rest. */
export const polyline = (points: Point[]): string => points.map(([x, y], i) => `${i ? 'L' : 'M'}${f(x)} ${f(y)}`).join('');
