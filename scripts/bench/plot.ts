/**
 * The growth plot: latency (p50 and p99, ms, log scale) of each measured scenario against the
 * catalog size (log scale), as a self-contained SVG the bench writes next to its figures.
 */

/** One line of the plot: a scenario's p50 or p99 at each catalog size. */
export interface PlotSeries {
  label: string;
  color: string;
  dashed: boolean;
  points: { records: number; ms: number }[];
}

const WIDTH = 720;
const HEIGHT = 440;
const LEFT = 70;
const RIGHT = 190;
const TOP = 40;
const BOTTOM = 50;

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Powers of ten from below min to above max. */
function decades(min: number, max: number): number[] {
  const list: number[] = [];
  for (let power = Math.floor(Math.log10(min)); power <= Math.ceil(Math.log10(max)); power += 1) list.push(10 ** power);
  return list;
}

function label(value: number): string {
  if (value >= 1e6) return `${value / 1e6}M`;
  if (value >= 1e3) return `${value / 1e3}k`;
  return `${value}`;
}

/** An SVG of the series, with its title and a note (e.g. the machine and the date) under it. */
export function growthPlot(title: string, note: string, series: readonly PlotSeries[]): string {
  const all = series.flatMap((one) => one.points).filter((point) => point.ms > 0 && point.records > 0);
  if (all.length === 0) return '';
  const xTicks = decades(Math.min(...all.map((point) => point.records)), Math.max(...all.map((point) => point.records)));
  const yTicks = decades(Math.max(0.1, Math.min(...all.map((point) => point.ms))), Math.max(...all.map((point) => point.ms)));
  const [xMin, xMax] = [Math.log10(xTicks[0] ?? 1), Math.log10(xTicks.at(-1) ?? 10)];
  const [yMin, yMax] = [Math.log10(yTicks[0] ?? 1), Math.log10(yTicks.at(-1) ?? 10)];
  const x = (records: number): number => LEFT + ((Math.log10(records) - xMin) / Math.max(1e-9, xMax - xMin)) * (WIDTH - LEFT - RIGHT);
  const y = (ms: number): number => HEIGHT - BOTTOM - ((Math.log10(Math.max(ms, 10 ** yMin)) - yMin) / Math.max(1e-9, yMax - yMin)) * (HEIGHT - TOP - BOTTOM);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${LEFT}" y="18" font-size="14" font-weight="bold">${escape(title)}</text>`,
    `<text x="${LEFT}" y="33" fill="#555">${escape(note)}</text>`,
  ];
  for (const tick of xTicks) {
    parts.push(`<line x1="${x(tick)}" y1="${TOP}" x2="${x(tick)}" y2="${HEIGHT - BOTTOM}" stroke="#ddd"/>`);
    parts.push(`<text x="${x(tick)}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle">${label(tick)}</text>`);
  }
  for (const tick of yTicks) {
    parts.push(`<line x1="${LEFT}" y1="${y(tick)}" x2="${WIDTH - RIGHT}" y2="${y(tick)}" stroke="#ddd"/>`);
    parts.push(`<text x="${LEFT - 6}" y="${y(tick) + 4}" text-anchor="end">${tick.toLocaleString('en-US')} ms</text>`);
  }
  parts.push(`<text x="${(LEFT + WIDTH - RIGHT) / 2}" y="${HEIGHT - 12}" text-anchor="middle">records in the catalog (log scale)</text>`);
  parts.push(`<text transform="translate(16 ${(TOP + HEIGHT - BOTTOM) / 2}) rotate(-90)" text-anchor="middle">latency (log scale)</text>`);
  series.forEach((one, index) => {
    const points = one.points.filter((point) => point.ms > 0).sort((a, b) => a.records - b.records);
    const dash = one.dashed ? ' stroke-dasharray="6 4"' : '';
    parts.push(`<polyline fill="none" stroke="${one.color}" stroke-width="2"${dash} points="${points.map((point) => `${x(point.records).toFixed(1)},${y(point.ms).toFixed(1)}`).join(' ')}"/>`);
    for (const point of points) parts.push(`<circle cx="${x(point.records).toFixed(1)}" cy="${y(point.ms).toFixed(1)}" r="3" fill="${one.color}"><title>${escape(`${one.label}: ${point.ms} ms at ${point.records} records`)}</title></circle>`);
    const legendY = TOP + 10 + index * 20;
    parts.push(`<line x1="${WIDTH - RIGHT + 15}" y1="${legendY}" x2="${WIDTH - RIGHT + 45}" y2="${legendY}" stroke="${one.color}" stroke-width="2"${dash}/>`);
    parts.push(`<text x="${WIDTH - RIGHT + 52}" y="${legendY + 4}">${escape(one.label)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
