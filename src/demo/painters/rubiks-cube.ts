import { between, f, hsl, HEIGHT, intBetween, linearGradient, polyline, WIDTH } from './kit.ts';
import type { Point, Rng } from './kit.ts';

/** The six sticker colours of a standard cube. */
const STICKERS = ['#f4f4f0', '#ffd500', '#c41e3a', '#ff5800', '#0051ba', '#009e60'];

/** One visible face: its corner and the two screen vectors along its edges, and how much shadow it takes. */
interface Face { corner: Point; across: Point; down: Point; shade: number; centre: string }

/** The items in a seeded random order (Fisher–Yates). */
function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = intBetween(rng, 0, i);
    [order[i], order[j]] = [order[j] as T, order[i] as T];
  }
  return order;
}

/** A 3×3 face of stickers, each a quadrilateral inset from its cell, in scrambled colours around a fixed centre. */
function stickers(rng: Rng, face: Face): string {
  const at = (u: number, v: number): Point => [face.corner[0] + (face.across[0] * u + face.down[0] * v) / 3, face.corner[1] + (face.across[1] * u + face.down[1] * v) / 3];
  const cells: string[] = [];
  for (let row = 0; row < 3; row += 1) {
    for (let column = 0; column < 3; column += 1) {
      const color = row === 1 && column === 1 ? face.centre : (STICKERS[intBetween(rng, 0, STICKERS.length - 1)] ?? face.centre);
      const [u0, v0, u1, v1] = [column + 0.09, row + 0.09, column + 0.91, row + 0.91];
      cells.push(`<path d="${polyline([at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)])}Z" fill="${color}"/>`);
    }
  }
  const outline = polyline([at(0, 0), at(3, 0), at(3, 3), at(0, 3)]);
  return `${cells.join('')}<path d="${outline}Z" fill="#000000" fill-opacity="${f(face.shade)}"/>`;
}

/** A 3×3×3 puzzle cube in isometric view: three faces of scrambled stickers on a black body, with a shadow. */
export function drawRubiksCube(rng: Rng, hue: number, id: string): string {
  const edge = between(rng, 205, 225);
  const [cx, cy] = [400, 300];
  const x: Point = [Math.cos(Math.PI / 6) * edge, Math.sin(Math.PI / 6) * edge];
  const y: Point = [-x[0], x[1]];
  const top: Point = [cx, cy - edge];
  const near: Point = [cx, cy];
  const centres = shuffled(rng, STICKERS);
  const faces: Face[] = [
    { corner: top, across: x, down: y, shade: 0, centre: centres[0] ?? '#ffffff' },
    { corner: [cx - x[0], cy - edge + x[1]], across: x, down: [0, edge], shade: 0.12, centre: centres[1] ?? '#ffffff' },
    { corner: near, across: [x[0], -x[1]], down: [0, edge], shade: 0.28, centre: centres[2] ?? '#ffffff' },
  ];
  const body = polyline([top, [cx + x[0], cy - edge + x[1]], [cx + x[0], cy + x[1]], [cx, cy + edge], [cx - x[0], cy + x[1]], [cx - x[0], cy - edge + x[1]]]);
  const defs = linearGradient(`${id}-bg`, [hsl(hue, 30, 92), hsl(hue, 30, 78)]);
  return `<defs>${defs}</defs><rect width="${WIDTH}" height="${HEIGHT}" fill="url(#${id}-bg)"/>`
    + `<ellipse cx="${cx + 30}" cy="${f(cy + edge + 10)}" rx="${f(x[0] * 1.2)}" ry="36" fill="#000000" fill-opacity="0.18"/>`
    + `<path d="${body}Z" fill="#141414" stroke="#141414" stroke-width="14" stroke-linejoin="round"/>`
    + faces.map((face) => stickers(rng, face)).join('');
}
