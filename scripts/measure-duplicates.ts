/**
 * Measures the duplicate signatures on image sets: for every set, the distances between same-work
 * copies (resized, recompressed, re-padded, slightly cropped) and between different works, by
 * blockhash and, for low-detail previews, by colour layout; prints the tables of docs/duplicates.md.
 *
 *   node --import tsx scripts/measure-duplicates.ts [--sample N] [DIR ...]
 *
 * Without DIR it measures the generated sets: the line drawings of the test suite and flat-colour
 * shapes. Each DIR is a folder of SVG, PNG, JPEG or WebP files measured as one more set (every
 * N-th file when there are more than --sample, default 400); docs/duplicates.md names the real
 * sets used. SVG files are rendered at 320 pixels on their longer side, on white.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { decodeAnalysisRaster } from '../indexer/media/inspect-image.ts';
import { AMBIGUOUS_MAX_DISTANCE, blockhash, contentRegion, DUPLICATE_MAX_DISTANCE, hammingDistance } from '../indexer/media/perceptual-hash.ts';
import { colourSignature, LOW_DETAIL_MIN_BLOCKS, SIGNATURE_AMBIGUOUS_MAX_DISTANCE, SIGNATURE_DUPLICATE_MAX_DISTANCE, signatureDistance, uninformativeBlocks } from '../indexer/media/colour-signature.ts';
import { drawings, render, variants } from '../test/indexer/media/fixtures/drawings.ts';
import { flatShapes, flatVariants } from '../test/indexer/media/fixtures/flat-shapes.ts';

interface Measured {
  work: string;
  kind: string;
  hash: string;
  uninformative: number;
  colour: string;
}

interface ImageSet {
  name: string;
  works: { name: string; png: Buffer }[];
}

async function measure(work: string, kind: string, bytes: Buffer): Promise<Measured> {
  const { region, box, background } = contentRegion(await decodeAnalysisRaster(bytes));
  return { work, kind, hash: blockhash(region), uninformative: uninformativeBlocks(region, background), colour: colourSignature(region, box.width / box.height, background) };
}

const quantiles = (values: number[]): string => {
  if (values.length === 0) return '| 0 | – | – | – | – | – |';
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))] ?? NaN;
  const show = (value: number): string => (Number.isFinite(value) ? (Number.isInteger(value) ? String(value) : value.toFixed(1)) : '∞');
  return `| ${values.length} | ${show(at(0))} | ${show(at(0.01))} | ${show(at(0.5))} | ${show(at(0.99))} | ${show(at(1))} |`;
};

type Verdict = 'duplicate' | 'ambiguous' | 'distinct';

/** The verdict before the colour-aware signature: blockhash alone. */
function blockhashVerdict(a: Measured, b: Measured): Verdict {
  const distance = hammingDistance(a.hash, b.hash);
  return distance <= DUPLICATE_MAX_DISTANCE ? 'duplicate' : distance <= AMBIGUOUS_MAX_DISTANCE ? 'ambiguous' : 'distinct';
}

/** The verdict the publisher gives now: the colour-aware signature when both previews are low-detail. */
function currentVerdict(a: Measured, b: Measured): Verdict {
  if (a.uninformative < LOW_DETAIL_MIN_BLOCKS || b.uninformative < LOW_DETAIL_MIN_BLOCKS) return blockhashVerdict(a, b);
  const distance = signatureDistance(a.colour, b.colour);
  return distance <= SIGNATURE_DUPLICATE_MAX_DISTANCE ? 'duplicate' : distance <= SIGNATURE_AMBIGUOUS_MAX_DISTANCE ? 'ambiguous' : 'distinct';
}

function tally(pairs: [Measured, Measured][], verdict: (a: Measured, b: Measured) => Verdict): string {
  const counts = { duplicate: 0, ambiguous: 0, distinct: 0 };
  for (const [a, b] of pairs) counts[verdict(a, b)] += 1;
  return `${counts.duplicate} / ${counts.ambiguous} / ${counts.distinct}`;
}

async function loadDirectory(directory: string, sample: number): Promise<ImageSet> {
  const files = readdirSync(directory).filter((file) => ['.svg', '.png', '.jpg', '.jpeg', '.webp'].includes(extname(file).toLowerCase())).sort();
  const step = Math.max(1, Math.floor(files.length / sample));
  const chosen = files.filter((_, index) => index % step === 0).slice(0, sample);
  const works: ImageSet['works'] = [];
  for (const file of chosen) {
    const bytes = readFileSync(join(directory, file));
    const image = extname(file).toLowerCase() === '.svg' ? sharp(bytes, { density: 300 }).resize(320, 320, { fit: 'inside' }) : sharp(bytes);
    works.push({ name: basename(file, extname(file)), png: await image.flatten({ background: '#ffffff' }).png().toBuffer() });
  }
  return { name: basename(directory), works };
}

/** Where --dump writes every measured preview as JSON lines, for further analysis. */
let dumpFile: string | undefined;

async function report(set: ImageSet, copiesOf: (png: Buffer, name: string) => Promise<{ kind: string; bytes: Buffer }[]>): Promise<void> {
  const entries: Measured[] = [];
  for (const work of set.works) {
    entries.push(await measure(work.name, 'original', work.png));
    for (const copy of await copiesOf(work.png, work.name)) entries.push(await measure(work.name, copy.kind, copy.bytes));
  }
  if (dumpFile) appendFileSync(dumpFile, entries.map((entry) => `${JSON.stringify({ set: set.name, ...entry })}\n`).join(''));
  const originals = new Map(entries.filter((entry) => entry.kind === 'original').map((entry) => [entry.work, entry]));
  const low = (entry: Measured): boolean => entry.uninformative >= LOW_DETAIL_MIN_BLOCKS;
  const same = entries.filter((entry) => entry.kind !== 'original').map((entry) => ({ entry, original: originals.get(entry.work) as Measured }));
  const bothLow = same.filter(({ entry, original }) => low(entry) && low(original));
  const flips = same.filter(({ entry, original }) => low(entry) !== low(original));
  const list = [...originals.values()];
  const differentHash: number[] = [];
  const differentColour: number[] = [];
  const differentBothLowHash: number[] = [];
  let nearestColour = { distance: Infinity, pair: '' };
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const a = list[i] as Measured;
      const b = list[j] as Measured;
      differentHash.push(hammingDistance(a.hash, b.hash));
      if (low(a) && low(b)) {
        const distance = signatureDistance(a.colour, b.colour);
        differentColour.push(distance);
        differentBothLowHash.push(hammingDistance(a.hash, b.hash));
        if (distance < nearestColour.distance) nearestColour = { distance, pair: `${a.work} ~ ${b.work}` };
      }
    }
  }
  console.log(`\n## ${set.name}: ${list.length} works, ${same.length} same-work copies; low-detail originals: ${list.filter(low).length}; copies whose low-detail status differs from their original's: ${flips.length}`);
  console.log('| class | pairs | min | p1 | p50 | p99 | max |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  console.log(`| same work, blockhash, all | ${quantiles(same.map(({ entry, original }) => hammingDistance(entry.hash, original.hash))).slice(2)}`);
  console.log(`| same work, blockhash, both low-detail | ${quantiles(bothLow.map(({ entry, original }) => hammingDistance(entry.hash, original.hash))).slice(2)}`);
  console.log(`| same work, blockhash, not both low-detail | ${quantiles(same.filter((pair) => !bothLow.includes(pair)).map(({ entry, original }) => hammingDistance(entry.hash, original.hash))).slice(2)}`);
  console.log(`| same work, colour, both low-detail | ${quantiles(bothLow.map(({ entry, original }) => signatureDistance(entry.colour, original.colour))).slice(2)}`);
  const kinds = [...new Set(bothLow.map(({ entry }) => entry.kind))];
  for (const kind of kinds) console.log(`| … colour, ${kind} | ${quantiles(bothLow.filter(({ entry }) => entry.kind === kind).map(({ entry, original }) => signatureDistance(entry.colour, original.colour))).slice(2)}`);
  console.log(`| different works, blockhash | ${quantiles(differentHash).slice(2)}`);
  console.log(`| different works, colour, both low-detail | ${quantiles(differentColour).slice(2)}`);
  console.log(`| different works, blockhash, both low-detail | ${quantiles(differentBothLowHash).slice(2)}`);
  console.log(`uninformative blocks of originals: ${quantiles(list.map((entry) => entry.uninformative)).slice(2)}`);
  console.log('\n| pairs | count | blockhash alone: duplicate / ambiguous / distinct | with the colour-aware signature |');
  console.log('| --- | --- | --- | --- |');
  const samePairs: [Measured, Measured][] = same.map(({ entry, original }) => [entry, original]);
  const differentPairs: [Measured, Measured][] = [];
  for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) differentPairs.push([list[i] as Measured, list[j] as Measured]);
  const row = (label: string, pairs: [Measured, Measured][]): void => console.log(`| ${label} | ${pairs.length} | ${tally(pairs, blockhashVerdict)} | ${tally(pairs, currentVerdict)} |`);
  row('same work, all copies', samePairs);
  for (const kind of [...new Set(samePairs.map(([entry]) => entry.kind))]) row(`same work, ${kind}`, samePairs.filter(([entry]) => entry.kind === kind));
  row('different works', differentPairs);
  console.log(`nearest different low-detail works by colour: ${nearestColour.pair} at ${nearestColour.distance.toFixed(1)}`);
  const worst = [...bothLow].map(({ entry, original }) => ({ what: `${entry.work}/${entry.kind}`, distance: signatureDistance(entry.colour, original.colour) })).sort((a, b) => b.distance - a.distance).slice(0, 5);
  console.log(`farthest same-work low-detail copies by colour: ${worst.map((item) => `${item.what} ${item.distance.toFixed(1)}`).join(', ')}`);
  const worstFlip = flips.map(({ entry, original }) => `${entry.work}/${entry.kind} (${original.uninformative}→${entry.uninformative}, blockhash ${hammingDistance(entry.hash, original.hash)})`).slice(0, 8);
  if (worstFlip.length) console.log(`status flips: ${worstFlip.join(', ')}`);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { sample: { type: 'string', default: '400' }, dump: { type: 'string' } } });
  dumpFile = values.dump;
  const sample = Number(values.sample);
  const generic = async (png: Buffer, name: string) => flatVariants(png, name);
  if (positionals.length === 0) {
    const lineDrawings = drawings();
    await report({ name: 'line drawings (test set)', works: await Promise.all(lineDrawings.map(async (drawing) => ({ name: drawing.name, png: await render(drawing) }))) }, async (png, name) =>
      variants(lineDrawings.find((drawing) => drawing.name === name) ?? (lineDrawings[0] as (typeof lineDrawings)[number]), png),
    );
    await report({ name: 'flat-colour shapes (generated)', works: await Promise.all(flatShapes().map(async (shape) => ({ name: shape.name, png: await sharp(Buffer.from(shape.svg)).png().toBuffer() }))) }, generic);
  }
  for (const directory of positionals) await report(await loadDirectory(directory, sample), generic);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
