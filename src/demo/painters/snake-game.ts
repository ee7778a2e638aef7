import { between, f, hsl, HEIGHT, intBetween, WIDTH } from './kit.ts';
import type { Point, Rng } from './kit.ts';

/** A snake game: a tiled playfield with a snake, walls, food and a pixel score. */
export function drawSnakeGame(rng: Rng, hue: number): string {
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
