import { expect } from 'chai';
import fc from 'fast-check';
import { validators } from '../../src/validation/schemas.ts';
import exportParamsSchema from '../../schemas/export-params.schema.json' with { type: 'json' };
import publicExportParamsSchema from '../../schemas/public-export-params.schema.json' with { type: 'json' };
import { PUBLIC_EXPORTS } from '../../src/exports/public-export.ts';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import type { ListResponse } from '../../src/domain/specimens.ts';
import { canonicalSourceUrl, workKey } from '../../src/domain/sources.ts';
import type { LocalizedRecord } from '../../src/domain/localize.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { expectationOf, queryParts, queryString, SEARCH_PARAM_NAMES, searchParamValue, unknownParam } from './query-arbitraries.ts';
import type { QueryExpectation, QueryPart } from './query-arbitraries.ts';
import { splitList } from '../../src/validation/coerce.ts';
import { expectNoServerError, expectProblem, fuzzCatalog, fuzzParameters, isBlank, matchingIds, namedInputs, runsFor, timeoutFor } from './support.ts';
import type { ListFilters } from './support.ts';

const LIST_RUNS = runsFor(1000);
const TIMELINE_RUNS = runsFor(500);
const PAGE_WALK_RUNS = runsFor(150);
const RECORD_RUNS = runsFor(500);
const EXPORT_RUNS = runsFor(150);
const FULL_EXPORT_RUNS = runsFor(150);
const HEADER_RUNS = runsFor(200);
const PAGE_RUNS = runsFor(200);

type Scope = 'specimens' | 'timeline';

describe('fuzz: read routes against the JSON Schemas', function () {
  this.timeout(60_000);
  let server: TestServer;
  /** Every record in the store (the fuzz catalog and the demo), read once from the store itself. */
  let records: CanonicalRecord[];
  /** Ids in the default order without text: date descending, then id. */
  let newestFirst: string[];
  const exportSecret = generateSecret();
  const ingestSecret = generateSecret();

  before(async () => {
    server = await startTestServer({ demo: true, records: fuzzCatalog(300) });
    records = [];
    for await (const record of server.backend.store.streamRecords()) records.push(record);
    await server.backend.tokens.createToken('fuzz-analyst', ['export'], secretSha256(exportSecret));
    await server.backend.tokens.createToken('fuzz-bot', ['ingest'], secretSha256(ingestSecret));
    newestFirst = [...records].sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1)).map((record) => record.id);
  });
  after(async () => server.close());

  /** Checks the 400 names every parameter it must and nothing that was fine. */
  function expectNamed(named: string[], expectation: QueryExpectation, what: string): void {
    for (const name of expectation.mustName) expect(named, `${what}: names ${name}`).to.include(name);
    for (const name of named) expect([...expectation.mustName, ...expectation.mayName], `${what}: names only bad parameters`).to.include(name);
  }

  /** Checks one 200 list page: schema, echoed paging, filters, language, exact total without text, order. */
  function expectValidList(body: ListResponse, values: Map<string, string>, scope: Scope, what: string, hasText = !isBlank(values.get('q'))): void {
    expect(validators.listResponse(body), `${what}: list schema ${JSON.stringify(validators.listResponse.errors)}`).to.equal(true);
    const limit = values.has('limit') ? Number(values.get('limit')) : 20;
    const offset = values.has('offset') ? Number(values.get('offset')) : 0;
    expect(body.limit, `${what}: limit`).to.equal(limit);
    expect(body.offset, `${what}: offset`).to.equal(offset);
    expect(body.items.length, `${what}: page size`).to.equal(Math.min(limit, Math.max(0, body.total - offset)));
    const filters = filtersOf(values, scope);
    const lang = values.get('lang') ?? 'zh';
    const pagePrefix = `${server.baseUrl}${lang === 'en' ? '/en' : ''}/specimens/`;
    for (const item of body.items) {
      if (filters.source) expect(filters.source, what).to.include(item.source);
      if (filters.format) expect(filters.format, what).to.include(item.format);
      if (filters.kind) expect(filters.kind, what).to.include(item.kind);
      if (filters.year) expect(filters.year, what).to.include(item.year);
      expect(item.url, `${what}: language of the page`).to.equal(`${pagePrefix}${item.id}/`);
    }
    if (values.has('facets')) expect(Object.keys(body.facets ?? {}), `${what}: the facets asked`).to.have.members([...new Set(splitList(values.get('facets') ?? '') ?? [])]);
    else expect(body.facets, what).to.equal(undefined);
    const sourceUrl = values.get('sourceUrl');
    if (sourceUrl !== undefined) {
      // A work's records, whatever form of its address was given: the oracle keys them as the duplicate check does.
      const canonical = canonicalSourceUrl(sourceUrl);
      const ofWork = records.filter((record) => canonical !== undefined && workKey(record.sourceUrl) === workKey(canonical) && (!filters.kind || filters.kind.includes(record.kind)));
      expect(body.total, `${what}: the work's records`).to.equal(ofWork.length);
      const inOrder = ofWork.map((record) => `${record.kind} ${record.id}`).sort().map((entry) => entry.split(' ')[1]);
      expect(body.items.map((item) => item.id), `${what}: the work's records by kind, then id`).to.deep.equal(inOrder.slice(offset, offset + limit));
      expect(body.next, what).to.equal(null);
      return;
    }
    const expected = matchingIds(records, filters);
    if (!hasText) {
      expect(body.total, `${what}: exact total`).to.equal(expected.size);
      const sort = values.get('sort') ?? (scope === 'timeline' ? 'oldest' : 'newest');
      if (sort === 'newest') {
        const ordered = newestFirst.filter((id) => expected.has(id));
        expect(body.items.map((item) => item.id), `${what}: newest first, then id`).to.deep.equal(ordered.slice(offset, offset + limit));
      }
    } else {
      expect(body.total, `${what}: total within the filtered set`).to.be.at.most(expected.size);
      for (const item of body.items) expect(expected.has(item.id), `${what}: ${item.id} passes the filters`).to.equal(true);
    }
    expectDatesOrdered(body.items, values.get('sort') ?? (scope === 'timeline' ? 'oldest' : hasText ? 'relevance' : 'newest'), what);
  }

  function expectDatesOrdered(items: readonly LocalizedRecord[], sort: string, what: string): void {
    const dates = items.map((item) => item.date);
    if (sort === 'newest') expect(dates, `${what}: dates descending`).to.deep.equal([...dates].sort().reverse());
    if (sort === 'oldest') expect(dates, `${what}: dates ascending`).to.deep.equal([...dates].sort());
  }

  function filtersOf(values: Map<string, string>, scope: Scope): ListFilters {
    const filters: ListFilters = {};
    for (const name of ['source', 'format', 'kind', 'year', 'model', 'author'] as const) {
      const value = values.get(name);
      if (value !== undefined) filters[name] = splitList(value);
    }
    if (scope === 'timeline') filters.kind = ['timeline'];
    for (const name of ['from', 'to', 'since'] as const) {
      const value = values.get(name);
      if (value !== undefined) filters[name] = value;
    }
    return filters;
  }

  async function checkListQuery(scope: Scope, parts: QueryPart[]): Promise<void> {
    const path = `/api/v1/${scope}${queryString(parts)}`;
    const expectation = expectationOf(parts, SEARCH_PARAM_NAMES);
    const response = await server.get(path);
    await expectNoServerError(response, path);
    if (expectation.mustName.length > 0) {
      expect(response.status, `${path}: invalid query`).to.equal(400);
      expectNamed(namedInputs(await expectProblem(response, path)), expectation, path);
      return;
    }
    if (response.status === 400 && expectation.mayName.length > 0) {
      expectNamed(namedInputs(await expectProblem(response, path)), expectation, path);
      return;
    }
    expect(response.status, `${path}: valid query`).to.equal(200);
    expect(response.headers.get('content-type'), path).to.equal('application/json; charset=utf-8');
    // Undecodable text still searches for something, so the total is only bounded.
    const hasText = expectation.mayName.includes('q') || !isBlank(expectation.values.get('q'));
    expectValidList((await response.json()) as ListResponse, expectation.values, scope, path, hasText);
  }

  it(`GET /api/v1/specimens: ${LIST_RUNS} generated queries answer 200 in schema with exact totals, or a 400 naming each bad parameter`, async function () {
    this.timeout(timeoutFor(LIST_RUNS, 60));
    await fc.assert(
      fc.asyncProperty(queryParts(SEARCH_PARAM_NAMES, ['gallery', 'timeline']), (parts) => checkListQuery('specimens', parts)),
      fuzzParameters(LIST_RUNS),
    );
  });

  it(`GET /api/v1/timeline: ${TIMELINE_RUNS} generated queries, kind fixed to timeline`, async function () {
    this.timeout(timeoutFor(TIMELINE_RUNS, 60));
    await fc.assert(
      fc.asyncProperty(queryParts(SEARCH_PARAM_NAMES, ['timeline']), (parts) => checkListQuery('timeline', parts)),
      fuzzParameters(TIMELINE_RUNS),
    );
  });

  it(`pages never overlap and together hold exactly total records (${PAGE_WALK_RUNS} generated valid queries walked page by page)`, async function () {
    this.timeout(timeoutFor(PAGE_WALK_RUNS, 400));
    const validValue = (name: (typeof SEARCH_PARAM_NAMES)[number], kinds: readonly string[]) =>
      searchParamValue(name, kinds).filter((entry) => entry.validity === 'valid' && entry.value !== '' && entry.value !== undefined);
    const walkable = fc.constantFrom<Scope>('specimens', 'timeline').chain((scope) => {
      const kinds = scope === 'timeline' ? ['timeline'] : ['gallery', 'timeline'];
      const part = fc.constantFrom('source', 'format', 'kind', 'year', 'model', 'from', 'to', 'lang', 'sort', 'q' as const).chain((name) => validValue(name, kinds));
      return fc.record({ scope: fc.constant(scope), limit: fc.integer({ min: 1, max: 50 }), parts: fc.uniqueArray(part, { maxLength: 3, selector: (entry) => entry.name }) });
    });
    await fc.assert(
      fc.asyncProperty(walkable, fc.context(), async ({ scope, limit, parts }, log) => {
        const seen = new Set<string>();
        let total = -1;
        const maxPages = 12;
        for (let page = 0; page < maxPages; page += 1) {
          const offset = page * limit;
          const path = `/api/v1/${scope}${queryString([...parts, { name: 'limit', encoded: String(limit), value: String(limit), validity: 'valid' }, { name: 'offset', encoded: String(offset), value: String(offset), validity: 'valid' }])}`;
          log.log(path);
          const response = await server.get(path);
          expect(response.status, path).to.equal(200);
          const body = (await response.json()) as ListResponse;
          if (total === -1) total = body.total;
          expect(body.total, `${path}: total stays the same across pages`).to.equal(total);
          for (const item of body.items) {
            expect(seen.has(item.id), `${path}: ${item.id} appeared on an earlier page`).to.equal(false);
            seen.add(item.id);
          }
          if (offset + limit >= total) break;
        }
        if (total <= maxPages * limit) {
          expect(seen.size, 'the pages together hold exactly total records').to.equal(total);
          // The same pages through next (cursor) instead of offsets.
          const walked: string[] = [];
          let cursor: string | null = null;
          do {
            const path = `/api/v1/${scope}${queryString([...parts, { name: 'limit', encoded: String(limit), value: String(limit), validity: 'valid' }, ...(cursor ? [{ name: 'cursor', encoded: cursor, value: cursor, validity: 'valid' as const }] : [])])}`;
            const response = await server.get(path);
            expect(response.status, path).to.equal(200);
            const body = (await response.json()) as ListResponse;
            walked.push(...body.items.map((item) => item.id));
            cursor = body.next;
          } while (cursor);
          expect(walked, 'the cursor walk gives the offset pages').to.deep.equal([...seen]);
          const values = new Map(parts.filter((entry) => entry.value !== undefined).map((entry) => [entry.name, entry.value ?? '']));
          if (isBlank(values.get('q'))) expect([...seen].sort()).to.deep.equal([...matchingIds(records, filtersOf(values, scope))].sort());
        }
      }),
      fuzzParameters(PAGE_WALK_RUNS),
    );
  });

  it(`GET /api/v1/specimens/{id}: ${RECORD_RUNS} generated ids and parameters answer the record, a 404 or a 400 naming the parameter`, async function () {
    this.timeout(timeoutFor(RECORD_RUNS, 60));
    const RECORD_NAMES = ['lang'];
    const knownId = fc.integer({ min: 0, max: 10_000 }).map((index) => records[index % records.length]?.id ?? '');
    const oddId = fc
      .oneof(
        fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,40}$/),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
        fc.constantFrom('SVG-GPT-4O-00000000', 'a'.repeat(128), 'a'.repeat(129), '-leading', 'under_score', 'with space', '鹈鹕', '😀', '%', '?', '#', 'id\u0000', '.hidden', 'a/b', 'a\\b'),
      )
      .filter((id) => id !== '.' && id !== '..' && !records.some((record) => record.id === id))
      .map((id) => ({ id, segment: encodeURIComponent(id), known: false }));
    // Path segments sent as they are: escapes that do not decode, an encoded slash, a NUL.
    const undecodableId = fc.constantFrom('%FF', '%E0%A4%A', '%', '%00', 'svg%2Fx', '%2e%2e%2fetc', '%C0%AF').map((segment) => ({ id: segment, segment, known: false }));
    const langPart = fc.oneof(
      searchParamValue('lang', []),
      fc.constantFrom('zh', 'en').map((value): QueryPart => ({ name: 'lang', encoded: value, value, validity: 'valid' })),
    );
    const query = fc.tuple(fc.array(langPart, { maxLength: 2 }), fc.array(unknownParam(RECORD_NAMES), { maxLength: 1 })).map(([langs, unknown]) => [...langs, ...unknown]);
    await fc.assert(
      fc.asyncProperty(fc.oneof(knownId.map((id) => ({ id, segment: id, known: true })), oddId, undecodableId), query, async ({ id, segment, known }, parts) => {
        const path = `/api/v1/specimens/${segment}${queryString(parts)}`;
        const expectation = expectationOf(parts, RECORD_NAMES);
        const response = await server.get(path);
        await expectNoServerError(response, path);
        if (expectation.mustName.length > 0) {
          expect(response.status, `${path}: invalid parameters`).to.equal(400);
          expectNamed(namedInputs(await expectProblem(response, path)), expectation, path);
          return;
        }
        if (!known) {
          expect(response.status, `${path}: unknown id`).to.equal(404);
          await expectProblem(response, path);
          return;
        }
        expect(response.status, path).to.equal(200);
        const record = (await response.json()) as LocalizedRecord;
        expect(validators.record(record), `${path}: record schema ${JSON.stringify(validators.record.errors)}`).to.equal(true);
        expect(record.id).to.equal(id);
        const lang = expectation.values.get('lang') ?? 'zh';
        expect(record.url).to.equal(`${server.baseUrl}${lang === 'en' ? '/en' : ''}/specimens/${id}/`);
      }),
      fuzzParameters(RECORD_RUNS),
    );
  });

  it(`public exports: ${EXPORT_RUNS} generated queries answer the export or a 400 naming each bad parameter`, async function () {
    this.timeout(timeoutFor(EXPORT_RUNS, 120));
    const routes = fc.constantFrom(...PUBLIC_EXPORTS.map((route) => route.path));
    const CSV_NAMES = Object.keys(publicExportParamsSchema.properties);
    const flag = fc.constantFrom(...CSV_NAMES).chain((name) =>
      fc.oneof(
        fc.constantFrom('0', '1').map((value): QueryPart => ({ name, encoded: value, value, validity: 'valid' })),
        fc.constantFrom('2', 'true', 'yes', ' 1', '01', '').map((value): QueryPart => ({ name, encoded: encodeURIComponent(value), value, validity: value === '' ? 'valid' : 'invalid' })),
      ),
    );
    const parts = fc.tuple(fc.array(flag, { maxLength: 2 }), fc.array(unknownParam(CSV_NAMES), { maxLength: 2 })).map(([flags, unknown]) => [...flags, ...unknown]);
    await fc.assert(
      fc.asyncProperty(routes, parts, fc.constantFrom('GET', 'HEAD', 'HEAD', 'HEAD'), async (route, query, method) => {
        const csv = route.endsWith('.csv');
        const expectation = expectationOf(query, csv ? CSV_NAMES : []);
        const path = `${route}${queryString(query)}`;
        const response = await server.get(path, { method });
        await expectNoServerError(response, path);
        if (expectation.mustName.length > 0) {
          expect(response.status, `${path}: invalid parameters`).to.equal(400);
          if (method === 'GET') expectNamed(namedInputs(await expectProblem(response, path)), expectation, path);
          return;
        }
        expect(response.status, path).to.equal(200);
        if (method === 'GET' && route.endsWith('.json')) {
          const body = (await response.json()) as { total: number; items: unknown[] };
          expect(body.total).to.equal(records.length);
          expect(body.items).to.have.length(records.length);
        } else if (method === 'GET' && route.endsWith('.ndjson')) {
          expect((await response.text()).trim().split('\n')).to.have.length(records.length);
        } else {
          await response.arrayBuffer();
        }
      }),
      fuzzParameters(EXPORT_RUNS),
    );
  });
  it(`GET /api/v1/export: ${FULL_EXPORT_RUNS} generated tokens and parameters from schemas/export-params.schema.json`, async function () {
    this.timeout(timeoutFor(FULL_EXPORT_RUNS, 150));
    const EXPORT_NAMES = Object.keys(exportParamsSchema.properties);
    const enumPart = (name: string, allowed: readonly string[]) =>
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...allowed).map((value): QueryPart => ({ name, encoded: value, value, validity: 'valid' })) },
        { weight: 2, arbitrary: fc.oneof(fc.constantFrom(...allowed.map((value) => value.toUpperCase()), 'xml', 'tsv', 'fr', ' json'), fc.string({ minLength: 1, maxLength: 10 })).filter((value) => !allowed.includes(value)).map((value): QueryPart => ({ name, encoded: encodeURIComponent(value), value, validity: 'invalid' })) },
        { weight: 1, arbitrary: fc.constant<QueryPart>({ name, encoded: '', value: '', validity: 'valid' }) },
      );
    const part = fc.oneof(enumPart('format', exportParamsSchema.properties.format.enum), enumPart('lang', exportParamsSchema.properties.lang.enum));
    const query = fc.tuple(fc.array(part, { maxLength: 3 }), fc.array(unknownParam(EXPORT_NAMES), { maxLength: 1 })).map(([known, unknown]) => [...known, ...unknown]);
    const holder = fc.constantFrom<'export' | 'ingest' | 'none'>('export', 'export', 'export', 'ingest', 'none');
    await fc.assert(
      fc.asyncProperty(query, holder, fc.constantFrom('HEAD', 'HEAD', 'HEAD', 'GET'), async (parts, who, method) => {
        const path = `/api/v1/export${queryString(parts)}`;
        const secret = who === 'export' ? exportSecret : who === 'ingest' ? ingestSecret : undefined;
        const response = await server.get(path, { method, headers: secret ? { Authorization: `Bearer ${secret}` } : {} });
        const what = `${method} ${path} as ${who}`;
        await expectNoServerError(response, what);
        if (who !== 'export') {
          expect(response.status, what).to.equal(who === 'none' ? 401 : 403);
          if (method === 'GET') await expectProblem(response, what);
          return;
        }
        const expectation = expectationOf(parts, EXPORT_NAMES);
        if (expectation.mustName.length > 0) {
          expect(response.status, what).to.equal(400);
          if (method === 'GET') expectNamed(namedInputs(await expectProblem(response, what)), expectation, what);
          return;
        }
        expect(response.status, what).to.equal(200);
        const format = expectation.values.get('format') ?? 'json';
        expect(response.headers.get('content-type'), what).to.include(format === 'json' ? 'application/json' : format === 'ndjson' ? 'application/x-ndjson' : 'text/csv');
        const text = await response.text();
        if (method === 'GET' && format === 'ndjson') expect(text.trim().split('\n'), what).to.have.length(records.length);
        if (method === 'GET' && format === 'json') expect((JSON.parse(text) as { total: number }).total, what).to.equal(records.length);
      }),
      fuzzParameters(FULL_EXPORT_RUNS),
    );
  });
  it(`odd request headers: ${HEADER_RUNS} generated Accept, Accept-Encoding, If-None-Match, Origin, Range and Content-Type values on reads, exports, ingest and MCP`, async function () {
    this.timeout(timeoutFor(HEADER_RUNS, 80));
    const headerValue = fc.oneof(
      fc.stringMatching(/^[\x20-\x7e]{0,60}$/),
      fc.constantFrom('*', '*/*', '"x"', 'W/"x"', 'gzip;q=0, *;q=0', 'identity;q=0', 'br, gzip, deflate', 'text/html', 'application/xml', 'application/problem+json', 'bytes=0-10', 'null', 'application/json; charset=latin1', 'application/json;;', 'text/event-stream'),
    );
    const headers = fc.dictionary(
      fc.constantFrom('Accept', 'Accept-Encoding', 'Accept-Language', 'If-None-Match', 'If-Modified-Since', 'Origin', 'Range', 'Cache-Control', 'User-Agent', 'X-Forwarded-For', 'Content-Type', 'MCP-Protocol-Version', 'Idempotency-Key'),
      headerValue.map((value) => value.trim()),
      { maxKeys: 4 },
    );
    type Target = { method: 'GET' | 'POST'; path: string; body?: string; authorized?: boolean };
    const targets = fc.constantFrom<Target>(
      { method: 'GET', path: '/api/v1/specimens' },
      { method: 'GET', path: '/api/v1/specimens?q=pelican&lang=en' },
      { method: 'GET', path: '/api/v1/timeline?limit=5' },
      { method: 'GET', path: '/en/data/catalog.json' },
      { method: 'POST', path: '/mcp', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_specimens', arguments: { limit: 50 } } }) },
      { method: 'POST', path: '/api/v1/ingest', body: JSON.stringify({ sourceUrl: 'https://github.com/fuzz/headers', date: '2025-01-01', model: 'M', author: 'A', format: 'svg', title: { zh: '题', en: 'T' }, notes: { zh: '注', en: 'N' }, media: ['https://raw.githubusercontent.com/fuzz/headers/p.png'] }), authorized: true },
    );
    await fc.assert(
      fc.asyncProperty(headers, targets, async (requestHeaders, target) => {
        const sent: Record<string, string> = { ...(target.body ? { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } : {}), ...requestHeaders, ...(target.authorized ? { Authorization: `Bearer ${ingestSecret}` } : {}) };
        const response = await server.get(target.path, { method: target.method, headers: sent, ...(target.body ? { body: target.body } : {}) });
        const what = `${target.method} ${target.path} with ${JSON.stringify(requestHeaders)}`;
        await expectNoServerError(response, what);
        if (response.status >= 400) {
          // The MCP transport answers its own refusals as JSON-RPC errors; everything else is a problem.
          if (target.path === '/mcp' && !(response.headers.get('content-type') ?? '').startsWith('application/problem+json')) {
            expect((await response.json()) as { error?: unknown }, what).to.have.property('error');
            return;
          }
          await expectProblem(response, what);
          return;
        }
        expect([200, 202, 304], what).to.include(response.status);
        await response.arrayBuffer();
      }),
      fuzzParameters(HEADER_RUNS),
    );
  });
  it(`website list pages: ${PAGE_RUNS} generated queries render the page, or a 400 page for a bad search value, page number or an API parameter pages do not take; never a 5xx`, async function () {
    this.timeout(timeoutFor(PAGE_RUNS, 150));
    const PAGE_PARAMETERS = ['q', 'format', 'kind', 'year', 'source', 'model', 'author', 'from', 'to', 'sort'];
    // The API's other list parameters (limit, offset, cursor, lang …) are refused when given a value.
    const NOT_TAKEN = SEARCH_PARAM_NAMES.filter((name) => !PAGE_PARAMETERS.includes(name));
    const pages = fc.constantFrom<{ path: string; scope: Scope }>({ path: '/', scope: 'specimens' }, { path: '/en/', scope: 'specimens' }, { path: '/timeline/', scope: 'timeline' }, { path: '/en/timeline/', scope: 'timeline' });
    const pageNumber = fc.oneof(fc.integer({ min: -2, max: 500 }).map(String), fc.constantFrom('', 'x', '1.5', '99999', '0')).map((value): QueryPart => ({ name: 'page', encoded: encodeURIComponent(value), value, validity: 'valid' }));
    const parts = (scope: Scope) => fc.tuple(queryParts(SEARCH_PARAM_NAMES, scope === 'timeline' ? ['timeline'] : ['gallery', 'timeline']), fc.option(pageNumber, { nil: undefined })).map(([query, page]) => (page ? [...query, page] : query));
    await fc.assert(
      fc.asyncProperty(pages.chain((page) => fc.tuple(fc.constant(page), parts(page.scope))), async ([page, query]) => {
        const path = `${page.path}${queryString(query)}`;
        const response = await server.get(path, { headers: { Accept: 'text/html' } });
        await expectNoServerError(response, path);
        // A page reads the first value of each search parameter and of page, refuses the API's
        // others, and ignores everything else.
        const first = (name: string) => query.find((entry) => entry.name === name);
        const firsts = PAGE_PARAMETERS.map(first).filter((entry): entry is QueryPart => entry !== undefined && entry.value !== '');
        const pageText = first('page')?.value ?? '';
        const badPage = pageText !== '' && !(/^\d+$/.test(pageText) && Number(pageText) >= 1);
        const notTaken = NOT_TAKEN.some((name) => {
          const entry = first(name);
          return entry !== undefined && entry.value !== '';
        });
        const mustFail = badPage || notTaken || firsts.some((entry) => entry.validity === 'invalid');
        const mayFail = firsts.some((entry) => entry.validity === 'either' || entry.validity === 'undecodable');
        expect(response.headers.get('content-type') ?? '', path).to.match(/^text\/html/);
        const asked = badPage || pageText === '' ? 1 : Number(pageText);
        if (mustFail) expect(response.status, `${path}: a bad search value`).to.equal(400);
        else if (response.status === 404) {
          // Only a page number past the last page is a 404, and it says so.
          expect(asked, `${path}: a 404 for page ${asked}`).to.be.greaterThan(1);
          expect(await response.text(), path).to.match(/past the end of the list|超出了列表的末尾/);
          return;
        } else if (!(mayFail && response.status === 400)) expect(response.status, path).to.equal(200);
        await response.arrayBuffer();
      }),
      fuzzParameters(PAGE_RUNS),
    );
  });
});
