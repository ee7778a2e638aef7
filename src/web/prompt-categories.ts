/**
 * What pages call a record's prompt category. A record keeps its category as a slug
 * (`pelican-bicycle`), and the API, MCP and the exports give it as that value; the website and the
 * Markdown twin, which people read, show a label in the page's language instead.
 */
import { INGEST_PROMPT_CATEGORY } from '../domain/ingest/publish.ts';
import type { Bilingual, Lang } from '../domain/record.ts';

/** Labels of the categories the archive's catalogs use: the demo's, the synthetic catalog's, and the one ingest gives. */
const PROMPT_CATEGORY_LABELS: Readonly<Record<string, Bilingual>> = {
  'ambient-scene': { zh: '环境场景', en: 'Ambient scene' },
  'analog-clock': { zh: '指针时钟', en: 'Analog clock' },
  butterfly: { zh: '蝴蝶', en: 'Butterfly' },
  'flight-simulator': { zh: '飞行模拟器', en: 'Flight simulator' },
  'ink-landscape': { zh: '水墨山水', en: 'Ink landscape' },
  'pelican-bicycle': { zh: '骑自行车的鹈鹕', en: 'Pelican riding a bicycle' },
  'rubiks-cube': { zh: '魔方', en: 'Rubik’s cube' },
  'snake-game': { zh: '贪吃蛇游戏', en: 'Snake game' },
  'solar-system': { zh: '太阳系', en: 'Solar system' },
  'svg-illustration': { zh: 'SVG 插画', en: 'SVG illustration' },
  'physics-simulation': { zh: '物理模拟', en: 'Physics simulation' },
  'browser-game': { zh: '网页游戏', en: 'Browser game' },
  'three-js-scene': { zh: 'three.js 场景', en: 'three.js scene' },
  'css-animation': { zh: 'CSS 动画', en: 'CSS animation' },
  'music-video': { zh: '音乐视频', en: 'Music video' },
  'data-visualization': { zh: '数据可视化', en: 'Data visualization' },
  [INGEST_PROMPT_CATEGORY]: { zh: '未分类', en: 'Uncategorized' },
};

/**
 * A prompt category as a page in `lang` names it: its label, or for a category the table does not
 * know (a catalog may bring its own) the slug's words, hyphens and underscores read as spaces.
 */
export function promptCategoryLabel(slug: string, lang: Lang): string {
  const known = Object.hasOwn(PROMPT_CATEGORY_LABELS, slug) ? PROMPT_CATEGORY_LABELS[slug] : undefined;
  return known?.[lang] ?? (slug.replace(/[-_]+/g, ' ').trim() || slug);
}
