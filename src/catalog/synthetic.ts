import { canonicalSourceUrl, SOURCES } from '../domain/sources.ts';
import { recordId } from '../domain/ids.ts';
import { seededRandom } from '../random.ts';
import { FORMATS, MEDIA_STATUSES } from '../domain/record.ts';
import type { CanonicalRecord, Format, Kind, MediaStatus } from '../domain/record.ts';

/**
 * A deterministic synthetic bilingual catalog for benchmarks and load tests: the same count gives
 * the same records on every machine. Every format, kind, source and year 2015–2026 occurs.
 */

/** English words paired with a Chinese rendering, so titles and notes read in both languages. */
export const SYNTHETIC_WORDS: readonly (readonly [string, string])[] = [
  ['pelican', '鹈鹕'], ['bicycle', '自行车'], ['lighthouse', '灯塔'], ['aquarium', '水族箱'], ['butterfly', '蝴蝶'], ['clock', '时钟'],
  ['solar', '太阳'], ['system', '系统'], ['planet', '行星'], ['orbit', '轨道'], ['garden', '花园'], ['mountain', '山峰'],
  ['river', '河流'], ['forest', '森林'], ['ocean', '海洋'], ['harbor', '港口'], ['village', '村庄'], ['castle', '城堡'],
  ['dragon', '龙'], ['tiger', '老虎'], ['panda', '熊猫'], ['rabbit', '兔子'], ['fox', '狐狸'], ['owl', '猫头鹰'],
  ['whale', '鲸鱼'], ['octopus', '章鱼'], ['jellyfish', '水母'], ['penguin', '企鹅'], ['flamingo', '火烈鸟'], ['sparrow', '麻雀'],
  ['rocket', '火箭'], ['satellite', '卫星'], ['telescope', '望远镜'], ['compass', '指南针'], ['lantern', '灯笼'], ['umbrella', '雨伞'],
  ['teapot', '茶壶'], ['piano', '钢琴'], ['violin', '小提琴'], ['drum', '鼓'], ['guitar', '吉他'], ['trumpet', '小号'],
  ['snake', '贪吃蛇'], ['maze', '迷宫'], ['puzzle', '谜题'], ['tetris', '俄罗斯方块'], ['chess', '国际象棋'], ['pinball', '弹球'],
  ['flight', '飞行'], ['simulator', '模拟器'], ['racing', '赛车'], ['platformer', '平台跳跃'], ['shooter', '射击'], ['sandbox', '沙盒'],
  ['landscape', '风景'], ['portrait', '肖像'], ['skyline', '天际线'], ['sunset', '日落'], ['aurora', '极光'], ['thunderstorm', '雷暴'],
  ['watercolor', '水彩'], ['ink', '水墨'], ['pixel', '像素'], ['isometric', '等距'], ['lowpoly', '低多边形'], ['neon', '霓虹'],
  ['cube', '立方体'], ['sphere', '球体'], ['torus', '圆环'], ['fractal', '分形'], ['spiral', '螺旋'], ['kaleidoscope', '万花筒'],
  ['animated', '动画'], ['interactive', '交互'], ['procedural', '程序化'], ['physics', '物理'], ['particle', '粒子'], ['shader', '着色器'],
  ['wave', '波浪'], ['flame', '火焰'], ['smoke', '烟雾'], ['rain', '雨'], ['snow', '雪'], ['wind', '风'],
  ['city', '城市'], ['train', '火车'], ['bridge', '桥梁'], ['tower', '高塔'], ['temple', '寺庙'], ['pagoda', '宝塔'],
  ['robot', '机器人'], ['astronaut', '宇航员'], ['wizard', '巫师'], ['knight', '骑士'], ['pirate', '海盗'], ['ninja', '忍者'],
  ['bouncing', '弹跳'], ['rotating', '旋转'], ['floating', '漂浮'], ['glowing', '发光'], ['melting', '融化'], ['dancing', '跳舞'],
  ['morning', '清晨'], ['midnight', '午夜'], ['winter', '冬天'], ['summer', '夏天'], ['autumn', '秋天'], ['spring', '春天'],
  ['golden', '金色'], ['crimson', '深红'], ['azure', '蔚蓝'], ['emerald', '翡翠'], ['violet', '紫罗兰'], ['silver', '银色'],
  ['tiny', '微小'], ['giant', '巨大'], ['ancient', '古老'], ['futuristic', '未来'], ['mechanical', '机械'], ['crystal', '水晶'],
];

const MODELS = ['GPT-4o', 'GPT-4.1', 'o3', 'GPT-5', 'Claude 3 Opus', 'Claude 3.5 Sonnet', 'Claude Opus 4.1', 'Claude Sonnet 4.5', 'Gemini 1.5 Pro', 'Gemini 2.5 Pro', 'DeepSeek-V3', 'DeepSeek-R1', 'Qwen2.5-Coder-32B', 'Qwen3-Coder', 'Kimi K2', 'GLM-4.5', 'Llama 3.1 405B', 'Grok 3', 'Mistral Large 2', 'GPT-3.5'];
const CATEGORIES = ['pelican-bicycle', 'svg-illustration', 'physics-simulation', 'browser-game', 'three-js-scene', 'css-animation', 'music-video', 'data-visualization'];
const KINDS_WEIGHTED: readonly Kind[] = ['gallery', 'gallery', 'gallery', 'gallery', 'gallery', 'gallery', 'timeline'];
const FIRST_YEAR = 2015;
const LAST_YEAR = 2026;


function sourceUrlFor(source: string, index: number, handle: string, date: string): string {
  const n = index.toString(36);
  switch (source) {
    case 'x': {
      const snowflake = (BigInt(Date.parse(`${date}T12:00:00Z`) - 1288834974657) << 22n) + BigInt(index);
      return `https://x.com/${handle}/status/${snowflake.toString()}`;
    }
    case 'github': return `https://github.com/${handle}/work-${n}`;
    case 'reddit': return `https://reddit.com/r/LocalLLaMA/comments/${n}/synthetic_${n}`;
    case 'bilibili': return `https://bilibili.com/video/BV1syn${n}`;
    case 'weibo': return `https://weibo.com/${handle}/syn${n}`;
    case 'youtube': return `https://youtube.com/watch?v=syn${n}`;
    case 'hn': return `https://news.ycombinator.com/item?id=${40000000 + index}`;
    case 'huggingface': return `https://huggingface.co/spaces/${handle}/work-${n}`;
    case 'codepen': return `https://codepen.io/${handle}/pen/syn${n}`;
    default: return `https://example.org/works/${handle}/${n}`;
  }
}

/** The synthetic record number index of a catalog (index from 0). */
export function syntheticRecord(index: number, updated: string): CanonicalRecord {
  const random = seededRandom(index * 7919 + 17);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const words = (count: number): (readonly [string, string])[] => Array.from({ length: count }, () => pick(SYNTHETIC_WORDS));
  // Spread records over every source, format and year first, then at random.
  const source = SOURCES[index % SOURCES.length]?.key ?? 'web';
  const format: Format = index < 50 ? (FORMATS[index % FORMATS.length] as Format) : pick(FORMATS);
  const kind: Kind = index < 50 ? (index % 2 === 0 ? 'gallery' : 'timeline') : pick(KINDS_WEIGHTED);
  const year = index < 200 ? FIRST_YEAR + (index % (LAST_YEAR - FIRST_YEAR + 1)) : FIRST_YEAR + Math.floor(random() * (LAST_YEAR - FIRST_YEAR + 1));
  const date = `${year}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;
  const model = pick(MODELS);
  const handle = `synthetic_author_${(index % 997).toString(36)}`;
  const titleWords = words(3 + Math.floor(random() * 3));
  const noteWords = words(14 + Math.floor(random() * 14));
  const sourceUrl = canonicalSourceUrl(sourceUrlFor(source, index, handle, date)) ?? '';
  const mediaStatus: MediaStatus = pick(MEDIA_STATUSES.filter((status) => status !== 'local-media'));
  const record: CanonicalRecord = {
    id: recordId({ canonicalSourceUrl: sourceUrl, kind, format, model }),
    kind,
    source,
    sourceUrl,
    date,
    model,
    author: `@${handle}`,
    format,
    title: { zh: titleWords.map(([, zh]) => zh).join(''), en: titleWords.map(([en]) => en).join(' ') },
    notes: { zh: `合成记录。${noteWords.map(([, zh]) => zh).join('')}。`, en: `Synthetic record. ${noteWords.map(([en]) => en).join(' ')}.` },
    promptCategory: pick(CATEGORIES),
    mediaStatus,
    media: [],
    updated,
  };
  if (random() < 0.7) record.prompt = `Make a ${format} of a ${words(3).map(([en]) => en).join(' ')}`;
  return record;
}

/** The first count synthetic records. */
export function* syntheticCatalog(count: number, updated: string): Generator<CanonicalRecord> {
  for (let index = 0; index < count; index += 1) yield syntheticRecord(index, updated);
}
