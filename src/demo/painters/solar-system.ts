import { between, f, HEIGHT, intBetween, WIDTH } from './kit.ts';
import type { Rng } from './kit.ts';

/** The eight planets from Mercury out: colour and radius in px. Saturn (the sixth) gets a ring. */
const PLANETS: { color: string; radius: number }[] = [
  { color: '#9e9a94', radius: 6 }, { color: '#e8cf8e', radius: 10 }, { color: '#3f82d4', radius: 11 }, { color: '#c8553d', radius: 8 },
  { color: '#d9a66b', radius: 25 }, { color: '#e6cf94', radius: 20 }, { color: '#8fd6dd', radius: 14 }, { color: '#3d5fd0', radius: 14 },
];
const SATURN = 5;
const CENTRE_Y = 300;

/** The solar system as a diagram: the Sun and eight planets on tilted orbits, among stars. */
export function drawSolarSystem(rng: Rng, _hue: number, id: string): string {
  const tilt = between(rng, 0.3, 0.42);
  const centreX = between(rng, 380, 420);
  const parts: string[] = [`<rect width="${WIDTH}" height="${HEIGHT}" fill="#0b0f24"/>`];
  for (let i = intBetween(rng, 40, 70); i > 0; i -= 1) parts.push(`<circle cx="${f(between(rng, 0, WIDTH))}" cy="${f(between(rng, 0, HEIGHT))}" r="${f(between(rng, 0.6, 1.8))}" fill="#ffffff" fill-opacity="${f(between(rng, 0.4, 0.9))}"/>`);
  const behind: string[] = [];
  const inFront: string[] = [];
  PLANETS.forEach((planet, k) => {
    const orbit = 88 + k * 42;
    parts.push(`<ellipse cx="${f(centreX)}" cy="${CENTRE_Y}" rx="${orbit}" ry="${f(orbit * tilt)}" fill="none" stroke="#9fb2ff" stroke-opacity="0.35" stroke-width="1.5"/>`);
    const angle = between(rng, 0, 2 * Math.PI);
    const [x, y] = [centreX + Math.cos(angle) * orbit, CENTRE_Y + Math.sin(angle) * orbit * tilt];
    const ring = k === SATURN ? `<ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(planet.radius * 2)}" ry="${f(planet.radius * 0.6)}" fill="none" stroke="#c9b27a" stroke-width="4" transform="rotate(-18 ${f(x)} ${f(y)})"/>` : '';
    (Math.sin(angle) < 0 ? behind : inFront).push(`<circle cx="${f(x)}" cy="${f(y)}" r="${planet.radius}" fill="${planet.color}"/>${ring}`);
  });
  const sun = `<radialGradient id="${id}-sun"><stop offset="0%" stop-color="#fff6c2"/><stop offset="60%" stop-color="#ffc93c"/><stop offset="100%" stop-color="#ff9a1f"/></radialGradient>`;
  const glow = `<circle cx="${f(centreX)}" cy="${CENTRE_Y}" r="62" fill="#ffb52e" fill-opacity="0.25"/><circle cx="${f(centreX)}" cy="${CENTRE_Y}" r="48" fill="url(#${id}-sun)"/>`;
  return `<defs>${sun}</defs>${parts.join('')}${behind.join('')}${glow}${inFront.join('')}`;
}
