/**
 * What a list page says of a bad search parameter, in the page's language. The messages come
 * from validation (describeErrors and the list checks), written in English for the API; English
 * pages show them as they are, Chinese pages say the same in Chinese. Each rule below matches one
 * kind of message those checks make; a message no rule knows is said as "the value is invalid",
 * so a Chinese page never shows English text.
 */
import type { Lang } from '../domain/record.ts';
import { MESSAGE_JOINER, onePerInput } from '../errors.ts';
import type { FieldError } from '../errors.ts';
import { TEXT } from './i18n.ts';

/** One kind of message: how it reads in English, and what a Chinese page says instead (`name`: the parameter's). */
interface MessageRule {
  english: RegExp;
  chinese: (match: RegExpExecArray, name: string) => string;
}

/** What a Chinese page calls the values of the parameters that take a fixed set, by their labels on the page. */
const CHINESE_VALUES: Readonly<Record<string, Readonly<Record<string, string>>>> = { format: TEXT.zh.formats, kind: TEXT.zh.kinds, sort: TEXT.zh.orders };

/**
 * A list of values as the English message writes it ("a, b, c"), written with the Chinese
 * enumeration comma and Chinese quotation marks; a value the page has a label for is named by it,
 * the value to write in brackets after (动画（animation）).
 */
function listed(values: string, name = ''): string {
  const labels = CHINESE_VALUES[name];
  return values
    .split(', ')
    .map((value) => {
      const label = labels?.[value];
      return label && label !== value ? `${label}（${value}）` : value.replace(/"([^"]*)"/g, '“$1”');
    })
    .join('、');
}

const atLeastOrAtMost = (bound: string | undefined): string => (bound === 'at least' ? '至少' : '最多');

const RULES: readonly MessageRule[] = [
  { english: /^must be one of: (.*) \(the archive's sources; (.*) (?:is|are) not\)$/, chinese: (match) => `只能是本馆的来源之一：${listed(match[1] ?? '')}（${listed(match[2] ?? '')} 不是）` },
  { english: /^must be one of: (.*)$/, chinese: (match, name) => `只能是以下之一：${listed(match[1] ?? '', name)}` },
  { english: /^must be a year of four digits/, chinese: () => '须为四位数字的年份，例如 2025' },
  { english: /^must be a date written YYYY-MM-DD/, chinese: () => '须为 YYYY-MM-DD 格式的日期，例如 2025-05-01' },
  { english: /^must be a date on a day that exists \((\S+) is written YYYY-MM-DD, but there is no such day\)/, chinese: (match) => `须为实际存在的日期（${match[1] ?? ''} 格式无误，但没有这一天），例如 2025-05-01` },
  { english: /^must not be blank$/, chinese: () => '不能为空' },
  { english: /^must be (at least|at most) (\d+) characters long$/, chinese: (match) => `${atLeastOrAtMost(match[1])} ${match[2]} 个字符` },
  { english: /^must hold (at least|at most) (\d+) entr(?:y|ies)$/, chinese: (match) => `${atLeastOrAtMost(match[1])} ${match[2]} 个值` },
  { english: /^must be (<=|>=) (\d+)$/, chinese: (match) => `${match[1] === '<=' ? '不能大于' : '不能小于'} ${match[2]}` },
  { english: /^must not be before from \((.*)\)$/, chinese: (match) => `不能早于起始日期 from（${match[1]}）` },
  { english: /^has a double quote that is never closed$/, chinese: () => '有一个双引号没有闭合' },
  { english: /^makes more than (\d+) combinations of OR alternatives$/, chinese: (match) => `OR 组合超过 ${match[1]} 种` },
  { english: /^must be at most (\d+) characters long as searched, in Unicode normal form NFKC \(it is (\d+):/, chinese: (match) => `按检索时的规范形式（NFKC）计，最多 ${match[1]} 个字符（现为 ${match[2]} 个：⒜、㍿ 这样的一个字符代表几个字符）` },
  { english: /^holds more than (\d+) words \(it holds (\d+);/, chinese: (match) => `最多 ${match[1]} 个词（现有 ${match[2]} 个；一段连续的汉字算一个）` },
  { english: /^holds more than (\d+) words in phrases, quoted or joined by punctuation like a-b-c \(it holds (\d+)\)$/, chinese: (match) => `短语（引号中的词，或像 a-b-c 这样由标点连起来的词）合计最多 ${match[1]} 个词（现有 ${match[2]} 个）` },
  {
    english: /^must be given once, not repeated(?: \(several values go in one, comma-separated\), and (.+) (?:is not a valid value|are not valid values)$)?/,
    chinese: (match) => `只能出现一次，不能重复${match[1] ? `（多个值用逗号分隔，写在一个参数里）；其中 ${listed(match[1])} 不是有效的值` : ''}`,
  },
  { english: /^is not a known parameter(?: \(did you mean (.+?)\?\))?/, chinese: (match) => `不是可用的参数${match[1] ? `（可能是指 ${match[1]}）` : ''}` },
  { english: /^is not a cursor this service gives out/, chinese: () => '不是本馆现在给出的游标：请原样传回上一页的 next，或从第一页重新开始' },
  { english: /^belongs to another query/, chinese: () => '属于另一个查询：请保持给出它的那一页的 q、lang、sort 和筛选条件' },
  { english: /^cannot be combined with cursor/, chinese: () => '不能与 cursor 一起使用' },
  { english: /^is not taken by the website's pages/, chinese: () => '网页不接受这个参数（网页自己设定它，或不提供它）；API 接受它：/api/v1/specimens' },
  { english: /^must be a page number/, chinese: () => '须为从 1 开始的整数' },
];

/** What Chinese pages call each parameter a list page reads, shown before its name (the filters by their labels on the page). */
const CHINESE_NAMES: Readonly<Record<string, string>> = {
  q: '搜索词',
  format: TEXT.zh.format,
  kind: TEXT.zh.kind,
  year: TEXT.zh.year,
  source: TEXT.zh.source,
  model: TEXT.zh.model,
  author: TEXT.zh.author,
  from: '起始日期',
  to: '截止日期',
  sort: '排序',
  page: '页码',
};

/** One message of one rule in Chinese: its rule's wording, or "the value is invalid" for a message no rule knows. */
function chineseRuleMessage(message: string, name: string): string {
  for (const rule of RULES) {
    const match = rule.english.exec(message);
    if (match) return rule.chinese(match, name);
  }
  return '值无效';
}

/**
 * A validation message of parameter `name` in Chinese. A parameter that breaks several rules has
 * their messages joined in its one entry (MESSAGE_JOINER, "; also "): each is said in Chinese, in
 * order, joined by "；另外", the fallback said once.
 */
export function chineseMessage(message: string, name = ''): string {
  return [...new Set(message.split(MESSAGE_JOINER).map((part) => chineseRuleMessage(part, name)))].join('；另外');
}

/** One bad parameter as a page in `lang` says it: its name (and, in Chinese, what the page calls it) and what is wrong. */
export function parameterNotice(error: FieldError, lang: Lang): string {
  const name = error.parameter ?? error.field ?? '';
  if (lang === 'en') return `${name}: ${error.message}`;
  const chineseName = CHINESE_NAMES[name];
  return `${chineseName ? `${chineseName}（${name}）` : name}：${chineseMessage(error.message, name)}`;
}

/** Every bad parameter of a search, once each (its messages joined), as one notice in the page's language. */
export function parameterNotices(errors: readonly FieldError[], lang: Lang): string {
  return onePerInput(errors).map((error) => parameterNotice(error, lang)).join(lang === 'zh' ? '；' : '; ');
}
