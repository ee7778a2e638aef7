/**
 * The request paths of the benchmark scenarios, built from the synthetic catalog's vocabulary so
 * every search can hit records. Deterministic: the same seed gives the same lists.
 */
import { SYNTHETIC_WORDS } from '../../src/catalog/synthetic.ts';
import { FORMATS, KINDS } from '../../src/domain/record.ts';
import { SOURCE_KEYS } from '../../src/domain/sources.ts';
import { seededRandom } from '../../src/random.ts';

/** Query classes of the distinct-search mix: one word, two words, a prefix, a word with a typo, a Chinese substring, two Chinese words. */
export const QUERY_CLASSES = ['word', 'pair', 'prefix', 'typo', 'zh', 'zhpair'] as const;
/** Classes that can be run alone but are not part of the mix: browse has filters and no text. */
export const EXTRA_CLASSES = ['browse'] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number] | (typeof EXTRA_CLASSES)[number];

export interface SearchPaths {
  paths: string[];
  tags: QueryClass[];
  /** For each path, the vocabulary it draws on (`en:pelican`, `zh:鹈鹕`, `format:svg`, `limit:50` …), for the coverage count. */
  uses: string[][];
}

const SEARCH = '/api/v1/specimens';
const YEARS = Array.from({ length: 12 }, (_, i) => String(2015 + i));
const ENGLISH = SYNTHETIC_WORDS.map(([en]) => en);
const CHINESE = SYNTHETIC_WORDS.map(([, zh]) => zh);
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Page sizes: the default (20) most often; the mean stays about 21. */
const PAGE_SIZES: readonly (number | undefined)[] = [undefined, undefined, undefined, 1, 5, 10, 25, 40, 50];

/** Everything the distinct mix draws from, by kind, so a run can show it used all of it. */
export const MIX_VOCABULARY: Readonly<Record<string, readonly string[]>> = {
  en: ENGLISH,
  zh: CHINESE,
  format: FORMATS,
  kind: KINDS,
  source: SOURCE_KEYS,
  year: YEARS,
  limit: PAGE_SIZES.map((size) => String(size ?? 20)).filter((size, i, all) => all.indexOf(size) === i),
  class: QUERY_CLASSES,
};

/** Random choices from one seeded generator. */
class Chooser {
  private readonly random: () => number;
  constructor(seed: number) {
    this.random = seededRandom(seed);
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  integer(from: number, to: number): number {
    return from + Math.floor(this.random() * (to - from + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)] as T;
  }
}

/** Draws without replacement from a shuffled copy, reshuffling when it runs out: every item comes up once per round. */
class Deck<T> {
  private left: T[] = [];
  constructor(
    private readonly items: readonly T[],
    private readonly choose: Chooser,
  ) {}
  draw(): T {
    if (this.left.length === 0) {
      this.left = [...this.items];
      for (let i = this.left.length - 1; i > 0; i -= 1) {
        const j = this.choose.integer(0, i);
        [this.left[i], this.left[j]] = [this.left[j] as T, this.left[i] as T];
      }
    }
    return this.left.pop() as T;
  }
}

/** A word with one typo: two neighbouring letters swapped, one deleted or one replaced. */
function typo(word: string, choose: Chooser): string {
  for (;;) {
    const at = choose.integer(0, word.length - 1);
    const operation = choose.integer(0, 2);
    let result: string;
    if (operation === 0 && at < word.length - 1) result = `${word.slice(0, at)}${word[at + 1]}${word[at]}${word.slice(at + 2)}`;
    else if (operation === 1) result = `${word.slice(0, at)}${word.slice(at + 1)}`;
    else result = `${word.slice(0, at)}${choose.pick([...LETTERS])}${word.slice(at + 1)}`;
    if (result !== word) return result;
  }
}

/** The decks of one mix: every word, filter value and page size comes up in turn. */
class MixDecks {
  readonly english: Deck<string>;
  readonly chinese: Deck<string>;
  readonly prefixable: Deck<string>;
  readonly typoable: Deck<string>;
  readonly formats: Deck<string>;
  readonly kinds: Deck<string>;
  readonly sources: Deck<string>;
  readonly years: Deck<string>;
  readonly pageSizes: Deck<number | undefined>;
  constructor(choose: Chooser) {
    this.english = new Deck(ENGLISH, choose);
    this.chinese = new Deck(CHINESE, choose);
    this.prefixable = new Deck(ENGLISH.filter((word) => word.length >= 4), choose);
    this.typoable = new Deck(ENGLISH.filter((word) => word.length >= 5), choose);
    this.formats = new Deck(FORMATS, choose);
    this.kinds = new Deck(KINDS, choose);
    this.sources = new Deck(SOURCE_KEYS, choose);
    this.years = new Deck(YEARS, choose);
    this.pageSizes = new Deck(PAGE_SIZES, choose);
  }
}

/** A 2–4 character run of Chinese text, inside one word or across two words as titles join them. */
function chineseSubstring(decks: MixDecks, choose: Chooser, uses: string[]): string {
  const first = decks.chinese.draw();
  uses.push(`zh:${first}`);
  let characters = [...first];
  if (characters.length < 2 || choose.chance(0.4)) {
    const second = decks.chinese.draw();
    uses.push(`zh:${second}`);
    characters = [...characters, ...second];
  }
  const length = choose.integer(2, Math.min(4, characters.length));
  const start = choose.integer(0, characters.length - length);
  return characters.slice(start, start + length).join('');
}

function text(kind: QueryClass, decks: MixDecks, choose: Chooser, uses: string[]): string | undefined {
  const word = (deck: Deck<string>, prefix: string): string => {
    const drawn = deck.draw();
    uses.push(`${prefix}:${drawn}`);
    return drawn;
  };
  switch (kind) {
    case 'word':
      return word(decks.english, 'en');
    case 'pair':
      return `${word(decks.english, 'en')} ${word(decks.english, 'en')}`;
    case 'prefix': {
      const whole = word(decks.prefixable, 'en');
      return whole.slice(0, choose.integer(3, Math.min(5, whole.length - 1)));
    }
    case 'typo':
      return typo(word(decks.typoable, 'en'), choose);
    case 'zh':
      return chineseSubstring(decks, choose, uses);
    case 'zhpair':
      return `${word(decks.chinese, 'zh')} ${word(decks.chinese, 'zh')}`;
    case 'browse':
      return undefined;
  }
}

/** One search path of a class, with filters, language, order, page size and offset. */
function searchPath(kind: QueryClass, decks: MixDecks, choose: Chooser, uses: string[]): string {
  const params = new URLSearchParams();
  const q = text(kind, decks, choose, uses);
  if (q !== undefined) params.set('q', q);
  const filters = kind === 'browse' ? choose.integer(1, 3) : choose.chance(0.4) ? choose.integer(1, 2) : 0;
  const names = ['format', 'kind', 'year', 'source'];
  const decksByName: Record<string, Deck<string>> = { format: decks.formats, kind: decks.kinds, year: decks.years, source: decks.sources };
  for (let i = 0; i < filters; i += 1) {
    const name = names.splice(choose.integer(0, names.length - 1), 1)[0] as string;
    const value = (decksByName[name] as Deck<string>).draw();
    params.set(name, value);
    uses.push(`${name}:${value}`);
  }
  // Mostly the language of the query text, sometimes the other one or the default (zh).
  const [usual, other] = kind === 'zh' || kind === 'zhpair' ? (['zh', 'en'] as const) : (['en', 'zh'] as const);
  const lang = choose.integer(0, 19);
  if (lang < 14) params.set('lang', usual);
  else if (lang < 17) params.set('lang', other);
  if (choose.chance(0.1)) params.set('sort', choose.pick(['newest', 'oldest']));
  const limit = decks.pageSizes.draw();
  if (limit !== undefined) params.set('limit', String(limit));
  uses.push(`limit:${limit ?? 20}`, `class:${kind}`);
  if (choose.chance(0.4)) params.set('offset', String(choose.integer(1, 200)));
  return `${SEARCH}?${params.toString()}`;
}

/**
 * count distinct search paths of the given classes, interleaved at random; words, filter values and
 * page sizes are dealt from shuffled decks, so the synthetic catalog's whole vocabulary comes up
 * within the first few hundred paths and then again in every round.
 */
export function distinctSearches(count: number, seed: number, classes: readonly QueryClass[] = QUERY_CLASSES): SearchPaths {
  const choose = new Chooser(seed);
  const decks = new MixDecks(choose);
  const seen = new Set<string>();
  const result: SearchPaths = { paths: [], tags: [], uses: [] };
  for (let attempts = 0; result.paths.length < count; attempts += 1) {
    if (attempts > count * 50) throw new Error(`only ${result.paths.length} distinct searches of ${classes.join(', ')} could be made`);
    const kind = choose.pick(classes);
    const uses: string[] = [];
    const path = searchPath(kind, decks, choose, uses);
    if (seen.has(path)) continue;
    seen.add(path);
    result.paths.push(path);
    result.tags.push(kind);
    result.uses.push(uses);
  }
  return result;
}

/** What part of the mix's vocabulary the given paths' uses drew on, by kind: used of all. */
export function vocabularyCoverage(uses: readonly (readonly string[])[]): { kind: string; used: number; of: number }[] {
  const seen = new Set(uses.flat());
  return Object.entries(MIX_VOCABULARY).map(([kind, all]) => ({ kind, used: all.filter((item) => seen.has(`${kind}:${item}`)).length, of: all.length }));
}

/** About twenty fixed searches, as popular pages and links would repeat them. */
export function repeatedSearches(): string[] {
  const queries = [
    'q=pelican&lang=en', 'q=bicycle', 'q=pelican+bicycle&lang=en', 'q=lighth&lang=en', 'q=ligthouse&lang=en',
    'q=%E9%B9%88%E9%B9%95', 'q=%E8%87%AA%E8%A1%8C%E8%BD%A6', 'q=%E7%81%AF%E5%A1%94&format=svg', 'q=dragon&year=2024&lang=en', 'format=game',
    'kind=timeline', 'source=github&lang=en', 'year=2020', 'q=robot&source=x&lang=en', 'q=%E7%86%8A%E7%8C%AB&kind=gallery',
    'q=claude&lang=en', 'q=gpt-4o&lang=en', 'q=%E6%B0%B4%E5%A2%A8', 'q=neon+city&sort=newest&lang=en', 'q=sunset&offset=40&lang=en',
  ];
  return queries.map((query) => `${SEARCH}?${query}`);
}

/** Single-record reads of the given ids, in both languages, interleaved. */
export function recordPaths(ids: readonly string[]): string[] {
  return ids.flatMap((id) => [`${SEARCH}/${encodeURIComponent(id)}?lang=en`, `${SEARCH}/${encodeURIComponent(id)}?lang=zh`]);
}

/** The MCP endpoint the tool-call scenarios POST to. */
export const MCP_PATH = '/mcp';

/** Headers of a stateless MCP request (no initialize, no session). */
export const MCP_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

/** Search parameters that the tool schema types as integers; the rest (year included) stay strings. */
const INTEGER_ARGUMENTS = new Set(['limit', 'offset']);

/** The search_specimens arguments a search path's query stands for. */
export function searchArguments(path: string): Record<string, string | number> {
  const query = path.includes('?') ? path.slice(path.indexOf('?') + 1) : '';
  const args: Record<string, string | number> = {};
  for (const [name, value] of new URLSearchParams(query)) args[name] = INTEGER_ARGUMENTS.has(name) ? Number(value) : value;
  return args;
}

/** JSON-RPC bodies calling search_specimens with each search path's arguments, ids from firstId on. */
export function mcpSearchBodies(paths: readonly string[], firstId = 1): string[] {
  return paths.map((path, i) =>
    JSON.stringify({ jsonrpc: '2.0', id: firstId + i, method: 'tools/call', params: { name: 'search_specimens', arguments: searchArguments(path) } }),
  );
}
