import type { ListResponse, SearchParams } from '../../domain/specimens.ts';
import type { Lang } from '../../domain/record.ts';
import type { FieldError } from '../../errors.ts';
import { FORMATS, KINDS } from '../../domain/record.ts';
import type { SourceDefinition } from '../../domain/sources.ts';
import { cleanText } from '../../domain/localize.ts';
import { langPrefix, TEXT } from '../i18n.ts';
import type { Text } from '../i18n.ts';
import { Layout } from '../layout.tsx';
import { Card } from './card.tsx';
import { parameterNotices } from '../parameter-notice.ts';
import { languageByScript } from '../text-language.ts';

/** Counts per value of each filter, for the current search. */
export interface Facets {
  format: Record<string, number>;
  kind: Record<string, number>;
  year: Record<string, number>;
  source: Record<string, number>;
}

export interface ListPageProps {
  lang: Lang;
  scope: 'gallery' | 'timeline';
  params: Partial<SearchParams>;
  list: ListResponse;
  /** How many pages the list has on the site (the router's count, which stops where offsets do). */
  pages: number;
  facets: Facets;
  years: string[];
  /** The archive's sources (the source table), in the order the filter lists them. */
  sources: readonly SourceDefinition[];
  /** The search's bad parameters: the page says what is wrong with each, and no search ran. */
  errors?: readonly FieldError[];
  /** The page asked for (its number exactly as asked, however large) lies past the last one, which is linked instead. */
  pastEnd?: { lastPage: number; asked: bigint };
  otherLanguagePath: string;
}

/** Values of a list parameter as a query string writes them: comma-separated, a value holding a comma or a quote in double quotes. */
export function listParameter(values: readonly string[]): string {
  return values.map((value) => (/[",]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value)).join(',');
}

/** Parameters of a page's address that the form does not show as a field of its own: kept in hidden fields and shown as filters a reader can drop. */
const CARRIED = ['model', 'author', 'from', 'to', 'sort'] as const;
type Carried = (typeof CARRIED)[number];

/** The page's address with its search, at another page number, optionally without some of its parameters. */
function pageHref(base: string, params: Partial<SearchParams>, page: number, without: readonly Carried[] = []): string {
  const query = new URLSearchParams();
  for (const name of ['q', 'format', 'kind', 'year', 'source', ...CARRIED] as const) {
    const value = params[name];
    if (!(without as readonly string[]).includes(name) && value?.length) query.set(name, Array.isArray(value) ? listParameter(value) : value);
  }
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}

/** A filter the selects do not show: what it is called, its values, and what dropping it leaves out. */
interface CarriedFilter {
  name: string;
  /** Shown joined with + (several models or authors). */
  values: string[];
  /** The values are in no recorded language (authors' names, as their sources write them): each is marked with the language its letters show (languageByScript). */
  markByScript: boolean;
  without: Carried[];
}

/** The parameters the selects do not show, each as a filter a reader can drop. */
function carriedFilters(params: Partial<SearchParams>, text: Text): CarriedFilter[] {
  const filters: CarriedFilter[] = [];
  for (const name of ['model', 'author'] as const) {
    const values = params[name];
    if (values?.length) filters.push({ name: text[name], values: [...values], markByScript: name === 'author', without: [name] });
  }
  if (params.from || params.to) filters.push({ name: text.date, values: [text.dateRange(params.from, params.to)], markByScript: false, without: ['from', 'to'] });
  if (params.sort) filters.push({ name: text.order, values: [text.orders[params.sort]], markByScript: false, without: ['sort'] });
  return filters;
}

/**
 * What a list page holds, in the words its title and description use: the search, then each filter's values in the
 * page's language (several values joined with +), and the date range. Empty for the whole list.
 */
function shownSelection(params: Partial<SearchParams>, lang: Lang, sources: readonly SourceDefinition[]): string[] {
  const text = TEXT[lang];
  const sourceLabel = (key: string) => sources.find((source) => source.key === key)?.label[lang] ?? key;
  const chosen = [
    params.format?.map((format) => text.formats[format]),
    params.kind?.map((kind) => text.kinds[kind]),
    params.year,
    params.source?.map(sourceLabel),
    params.model?.map(cleanText),
    params.author?.map(cleanText),
  ];
  // Typed text as stored text is shown: without bidirectional overrides, which turned the tab's title around.
  const q = params.q ? cleanText(params.q).trim() : '';
  return [
    ...(q ? [lang === 'zh' ? `“${q}”` : `"${q}"`] : []),
    ...chosen.flatMap((values) => (values?.length ? [values.join(' + ')] : [])),
    ...(params.from || params.to ? [text.dateRange(params.from, params.to)] : []),
  ];
}

/**
 * A list page's title (the layout adds the archive's name): what it holds and how many works match
 * it, which list, which page; the archive's name alone for the whole gallery's first page. The
 * count comes first after the search, so that a screen reader says it as the page loads. A page
 * whose search could not run (bad parameters, shown as none chosen; `total` undefined) still names
 * its list.
 */
function listTitle(scope: ListPageProps['scope'], selection: readonly string[], page: number | bigint, text: Text, total: number | undefined): string {
  if (scope === 'gallery' && selection.length === 0 && page === 1 && total !== undefined) return text.archive;
  const count = selection.length && total !== undefined ? [text.results(total)] : [];
  return [...selection, ...count, scope === 'gallery' ? text.gallery : text.timeline, ...(page > 1 ? [text.pageNumber(page)] : [])].join(' · ');
}

/**
 * A list page's description (meta description and link previews): what the list is, or what it
 * holds when something is chosen, and how many works it holds when a search ran.
 */
function listDescription(scope: ListPageProps['scope'], selection: readonly string[], total: number | undefined, lang: Lang): string {
  const text = TEXT[lang];
  const whole = scope === 'gallery' ? `${text.tagline}${lang === 'zh' ? '。' : '.'}` : text.timelineIntro;
  const about = selection.length === 0 ? whole : scope === 'gallery' ? text.galleryMatching(selection) : text.timelineMatching(selection);
  return total === undefined ? about : `${about}${text.punctuationSpace}${text.listCount(total)}`;
}

/** The gallery (home) and the timeline: a search form with facet counts, a grid and pagination. */
export function ListPage(props: ListPageProps) {
  const { lang, params, list, facets } = props;
  const text = TEXT[lang];
  const base = props.scope === 'gallery' ? `${langPrefix(lang)}/` : `${langPrefix(lang)}/timeline/`;
  const page = Math.floor(list.offset / list.limit) + 1;
  const { pages } = props;
  // The page's heading, for screen readers and outlines (the masthead names the archive).
  const heading = props.scope === 'gallery' ? text.gallery : text.timeline;
  const activeFilters = carriedFilters(params, text);
  const selection = shownSelection(params, lang, props.sources);
  const counted = (label: string, count: number) => (props.errors ? label : text.counted(label, count));
  const option = (value: string, label: string, count: number | undefined, selected: readonly string[] | undefined) => (
    <option value={value} selected={selected?.length === 1 && selected[0] === value}>
      {counted(label, count ?? 0)}
    </option>
  );
  /**
   * A filter of several values (a shared address such as ?format=svg,game), or of a value the
   * select does not list, as one selected option of its own: the select shows what the list holds,
   * and changing another filter keeps it instead of sending only one of its values.
   */
  const chosen = (selected: readonly string[] | undefined, listed: readonly string[], label: (value: string) => string, counts: Record<string, number>) =>
    selected && (selected.length > 1 || (selected.length === 1 && !listed.includes(selected[0] ?? ''))) ? (
      <option value={selected.join(',')} selected>
        {counted(selected.map(label).join(' + '), selected.reduce((sum, value) => sum + (counts[value] ?? 0), 0))}
      </option>
    ) : null;
  return (
    <Layout
      lang={lang}
      title={listTitle(props.scope, selection, props.pastEnd?.asked ?? page, text, props.errors ? undefined : list.total)}
      description={listDescription(props.scope, selection, props.errors ? undefined : list.total, lang)}
      otherLanguagePath={props.otherLanguagePath}
      current={{ section: props.scope }}
      {...(props.errors || props.pastEnd ? {} : { canonicalPath: pageHref(base, params, page) })}
    >
      <h1 class="visually-hidden">{heading}</h1>
      {props.scope === 'timeline' ? <p class="intro">{text.timelineIntro}</p> : null}
      <form class="search" method="get" action={base} role="search">
        <label class="visually-hidden" for="q">{text.search}</label>
        <input id="q" type="search" name="q" value={params.q ?? ''} placeholder={text.searchPlaceholder} maxLength={200} />
        <button type="submit">{text.search}</button>
        <div class="filters">
          <label>
            <span>{text.format}</span>
            <select name="format">
              <option value="">{text.allFormats}</option>
              {chosen(params.format, FORMATS, (format) => text.formats[format as (typeof FORMATS)[number]] ?? format, facets.format)}
              {FORMATS.map((format) => option(format, text.formats[format], facets.format[format], params.format))}
            </select>
          </label>
          {props.scope === 'gallery' ? (
            <label>
              <span>{text.kind}</span>
              <select name="kind">
                <option value="">{text.allKinds}</option>
                {chosen(params.kind, KINDS, (kind) => text.kinds[kind as (typeof KINDS)[number]] ?? kind, facets.kind)}
                {KINDS.map((kind) => option(kind, text.kinds[kind], facets.kind[kind], params.kind))}
              </select>
            </label>
          ) : null}
          <label>
            <span>{text.year}</span>
            <select name="year">
              <option value="">{text.allYears}</option>
              {chosen(params.year, props.years, (year) => year, facets.year)}
              {props.years.map((year) => option(year, year, facets.year[year], params.year))}
            </select>
          </label>
          <label>
            <span>{text.source}</span>
            <select name="source">
              <option value="">{text.allSources}</option>
              {chosen(params.source, props.sources.map((source) => source.key), (key) => props.sources.find((source) => source.key === key)?.label[lang] ?? key, facets.source)}
              {props.sources.map((source) => option(source.key, source.label[lang], facets.source[source.key], params.source))}
            </select>
          </label>
          {CARRIED.map((name) => {
            const value = params[name];
            return value?.length ? <input type="hidden" name={name} value={Array.isArray(value) ? listParameter(value) : value} /> : null;
          })}
          <button type="submit" class="secondary">{text.filter}</button>
          <a class="clear" href={base}>{text.clear}</a>
          <p class="filters-note" id="filters-note" data-filters-note hidden>{text.filtersNote}</p>
        </div>
      </form>
      {activeFilters.length ? (
        // What the selects do not offer (a record page links its model and author; a shared address can carry dates and an order): shown, each with a way out.
        <ul class="active-filters" role="list">
          {activeFilters.map(({ name, values, markByScript, without }) => {
            const label = (
              <>
                {name}{text.colon}
                {values.map((value, index) => (
                  <>
                    {index ? ' + ' : null}
                    {markByScript ? <span lang={languageByScript(value)}>{value}</span> : value}
                  </>
                ))}
              </>
            );
            // The ✕ is named by hidden text rather than aria-label, which cannot mark the language of an author's name in it.
            return (
              <li>
                {label}{' '}
                <a href={pageHref(base, params, 1, without)}>
                  <span class="visually-hidden">{text.removeFilter[0]}{label}{text.removeFilter[1]}</span>
                  <span aria-hidden="true">✕</span>
                </a>
              </li>
            );
          })}
        </ul>
      ) : null}
      {props.errors ? <p class="notice" role="alert">{text.invalid}{parameterNotices(props.errors, lang)}{text.fullStop}</p> : null}
      {props.pastEnd ? (
        <p class="notice" role="alert">
          {text.pastEnd(props.pastEnd.lastPage)}{text.punctuationSpace}<a href={pageHref(base, params, props.pastEnd.lastPage)}>{text.lastPage(props.pastEnd.lastPage)}</a>
        </p>
      ) : null}
      {props.errors ? null : <p class="count" aria-live="polite">{text.results(list.total)}</p>}
      {props.pastEnd || props.errors ? null : list.items.length ? (
        <ol class={props.scope === 'timeline' ? 'grid timeline-grid' : 'grid'} role="list">
          {list.items.map((record) => <Card record={record} lang={lang} marksTimeline={props.scope !== 'timeline'} />)}
        </ol>
      ) : (
        <p class="empty">{text.noResults}</p>
      )}
      {pages > 1 && !props.pastEnd ? (
        <nav class="pagination" aria-label={text.pagination}>
          {page > 1 ? <a rel="prev" href={pageHref(base, params, page - 1)}>{text.previous}</a> : <span />}
          <span>{text.page(page, pages)}</span>
          {page < pages ? <a rel="next" href={pageHref(base, params, page + 1)}>{text.next}</a> : <span />}
        </nav>
      ) : null}
      {!props.errors && (page >= pages || props.pastEnd) && list.total > pages * list.limit ? (
        // Pages stop where offsets do, before the end of a large list: the rest is in the bulk exports.
        <p class="notice">
          {text.pagesStop(pages, pages * list.limit)}
          {text.punctuationSpace}
          <a href={`${langPrefix(lang)}/data/catalog.json`}>JSON</a>
          {text.listSeparator}
          <a href={`${langPrefix(lang)}/data/catalog.csv?excel=1`}>CSV</a>
          {text.fullStop}
        </p>
      ) : null}
    </Layout>
  );
}
