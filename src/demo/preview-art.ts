/** Generative preview plates for demo works: one deterministic, standalone SVG per work, drawing its subject, safe for librsvg. */
import { seededRandom } from '../random.ts';
import { HEIGHT, WIDTH } from './painters/kit.ts';
import type { Painter } from './painters/kit.ts';
import { drawAquarium } from './painters/aquarium.ts';
import { drawButterfly } from './painters/butterfly.ts';
import { drawClock } from './painters/clock.ts';
import { drawInkLandscape } from './painters/ink-landscape.ts';
import { drawLighthouse } from './painters/lighthouse.ts';
import { drawPelicanOnBicycle } from './painters/pelican-bicycle.ts';
import { drawPlane } from './painters/plane.ts';
import { drawRubiksCube } from './painters/rubiks-cube.ts';
import { drawSnakeGame } from './painters/snake-game.ts';
import { drawSolarSystem } from './painters/solar-system.ts';

/** What a demo preview can show, one painter each; a demo work names its own (DemoWork.subject). */
const PAINTERS = {
  'pelican-bicycle': drawPelicanOnBicycle,
  clock: drawClock,
  'ink-landscape': drawInkLandscape,
  lighthouse: drawLighthouse,
  aquarium: drawAquarium,
  'solar-system': drawSolarSystem,
  butterfly: drawButterfly,
  'rubiks-cube': drawRubiksCube,
  'snake-game': drawSnakeGame,
  plane: drawPlane,
} as const satisfies Record<string, Painter>;

/** The subject of a demo preview: what its plate draws. */
export type PreviewSubject = keyof typeof PAINTERS;

/** Every subject there is a painter for. */
export const PREVIEW_SUBJECTS = Object.keys(PAINTERS) as PreviewSubject[];

export function isPreviewSubject(value: unknown): value is PreviewSubject {
  return typeof value === 'string' && Object.hasOwn(PAINTERS, value);
}

/** A work's fields that the preview art depends on. */
export interface PreviewArtInput { subject: PreviewSubject; title: string; seed: number }

/** FNV-1a hash of a string, mixed into the seed so equal seeds with different titles still differ. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Returns a complete standalone SVG document (800×600) drawing a work's subject, varied by its seed and title. */
export function renderPreviewArt(input: PreviewArtInput): string {
  const seed = (input.seed ^ hashString(input.title)) >>> 0;
  const rng = seededRandom(seed);
  const hue = rng() * 360;
  const id = `pa${seed.toString(36)}`;
  const body = PAINTERS[input.subject](rng, hue, id);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${body}</svg>\n`;
}
