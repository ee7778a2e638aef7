import { expect } from 'chai';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import searchParamsSchema from '../../schemas/search-params.schema.json' with { type: 'json' };
import recordParamsSchema from '../../schemas/record-params.schema.json' with { type: 'json' };
import { validators } from '../../src/validation/schemas.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { BUILT_IN_SOURCE_TABLE } from '../../src/domain/sources.ts';
import type { ListResponse } from '../../src/domain/specimens.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { expectNoServerError, fuzzCatalog, fuzzParameters, isBlank, matchingIds, MODELS, runsFor, timeoutFor, withinSearchTextBounds } from './support.ts';
import type { ListFilters } from './support.ts';
import { compactListResult } from '../../src/mcp/compact.ts';
import type { CompactRecord, ExtraField } from '../../src/mcp/compact.ts';
import { splitList } from '../../src/validation/coerce.ts';

const LIST_TOOL_RUNS = runsFor(500);
const RECORD_TOOL_RUNS = runsFor(300);
const RAW_RPC_RUNS = runsFor(300);

type ToolArguments = Record<string, unknown>;

/** Tool arguments and the names an error result must mention (empty when they are valid). */
interface CandidateArguments {
  args: ToolArguments;
  mustName: string[];
}

/** One argument: its name, value, and whether the schema accepts it. */
interface Argument {
  name: string;
  value: unknown;
  valid: boolean;
}

const search = searchParamsSchema.properties;

/** Values no parameter takes, whatever its type: booleans, fractions, objects, lists of those. */
const STRANGE: fc.Arbitrary<unknown> = fc.oneof(
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 3 }), fc.integer(), { minKeys: 1, maxKeys: 2 }),
  fc.array(fc.boolean(), { minLength: 1, maxLength: 2 }),
);

/** What language models send for "nothing": null, the empty string, an empty list (all count as absent). */
const ABSENT: fc.Arbitrary<unknown> = fc.constantFrom(null, '', []);

function argument(name: string, valid: fc.Arbitrary<unknown>, invalid: fc.Arbitrary<unknown>): fc.Arbitrary<Argument> {
  return fc.oneof(
    { weight: 5, arbitrary: valid.map((value) => ({ name, value, valid: true })) },
    { weight: 1, arbitrary: ABSENT.map((value) => ({ name, value, valid: true })) },
    { weight: 2, arbitrary: fc.oneof(invalid, STRANGE).map((value) => ({ name, value, valid: false })) },
  );
}

function enumArgument(name: string, allowed: readonly string[], acceptable: readonly string[] = allowed): fc.Arbitrary<Argument> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...allowed).map((value) => ({ name, value, valid: acceptable.includes(value) })) },
    { weight: 1, arbitrary: ABSENT.map((value) => ({ name, value, valid: true })) },
    { weight: 2, arbitrary: fc.oneof(fc.string({ minLength: 1, maxLength: 12 }).filter((value) => !allowed.includes(value)), fc.constantFrom(...allowed.map((value) => value.toUpperCase())).filter((value) => !allowed.includes(value)), fc.integer(), STRANGE).map((value) => ({ name, value, valid: false })) },
  );
}

/** A list of allowed values as a model may send it: one value, a JSON list, or a comma-separated string. */
function listArgument(name: string, allowed: readonly string[], acceptable: readonly string[] = allowed): fc.Arbitrary<Argument> {
  const good = fc.constantFrom(...acceptable);
  const bad = fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/).filter((value) => !allowed.includes(value)), ...(acceptable.length < allowed.length ? [fc.constantFrom(...allowed.filter((value) => !acceptable.includes(value)))] : []));
  return argument(
    name,
    fc.oneof(good, fc.array(good, { minLength: 1, maxLength: 2 }), fc.array(good, { minLength: 1, maxLength: 3 }).map((values) => values.join(','))),
    fc.oneof(bad, fc.tuple(good, bad).map(([a, b]) => [a, b]), fc.integer()),
  );
}

function integerArgument(name: string, minimum: number, maximum: number): fc.Arbitrary<Argument> {
  const inRange = fc.integer({ min: minimum, max: Math.min(maximum, minimum + 400) });
  return argument(
    name,
    fc.oneof(inRange, fc.constantFrom(minimum, maximum), inRange.map(String)),
    fc.oneof(fc.integer({ max: minimum - 1 }), fc.integer({ min: maximum + 1 }), fc.constantFrom(minimum - 1, maximum + 1, 1e21, '1e1', '1.5', 'five', String(maximum + 1)), fc.array(fc.integer(), { minLength: 1, maxLength: 2 })),
  );
}

function textArgument(name: string, maxLength: number): fc.Arbitrary<Argument> {
  return argument(
    name,
    // Search text within the bounds checked beside the schema (a character NFKC makes many can pass them).
    fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).filter(withinSearchTextBounds), fc.constantFrom('pelican', 'work', '作品', 'lighthouse', '鹈鹕', ' ', '"', 'NEAR(a b)', '\u202e', 'pelican -work', 'work OR lighthouse', '😀'.repeat(maxLength)), fc.integer({ min: 0, max: 99999 })),
    fc.constantFrom('x'.repeat(maxLength + 1), '字'.repeat(maxLength + 7), ['pelican']),
  );
}

function dateArgument(name: 'from' | 'to' | 'since'): fc.Arbitrary<Argument> {
  const years = name === 'from' ? [2015, 2020] : name === 'to' ? [2021, 2027] : [2015, 2027];
  const date = fc.date({ min: new Date(Date.UTC(years[0] ?? 2015, 0, 1)), max: new Date(Date.UTC(years[1] ?? 2027, 11, 31)), noInvalidDate: true }).map((value) => value.toISOString().slice(0, 10));
  return argument(name, date, fc.constantFrom('2025-02-30', '2025-1-1', 'yesterday', 2025, ['2025-01-01']));
}

function searchArgument(name: string, acceptableKinds: readonly string[]): fc.Arbitrary<Argument> {
  switch (name) {
    case 'q':
      return textArgument('q', search.q.maxLength);
    case 'limit':
      return integerArgument('limit', search.limit.minimum, search.limit.maximum);
    case 'offset':
      return integerArgument('offset', search.offset.minimum, search.offset.maximum);
    case 'year':
      return argument(name, fc.oneof(fc.constantFrom('2022', '2023', '2024', '2025', '2026', '0000', 2025, '2024,2025'), fc.constantFrom(['2024', 2025], [2023])), fc.constantFrom(20255, '25', '20250', '２０２５', [25]));
    case 'kind':
      return listArgument('kind', search.kind.items.enum, acceptableKinds);
    case 'source':
      return listArgument(name, BUILT_IN_SOURCE_TABLE.keys);
    case 'format':
    case 'facets':
      return listArgument(name, search[name].items.enum);
    case 'model':
    case 'author':
      return argument(name, fc.constantFrom(...MODELS, 'gpt-4o', '@factory_author', ['Lee, Ann'], ['GPT-4o', 'o3-mini'], 'GPT-4o,o3-mini'), fc.constantFrom('x'.repeat(201), '"unclosed', [''], 42.5));
    case 'from':
    case 'to':
    case 'since':
      return dateArgument(name);
    case 'cursor':
      return fc.oneof(
        { weight: 3, arbitrary: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), fc.constantFrom('x'.repeat(1025))).map((value) => ({ name, value, valid: false })) },
        { weight: 1, arbitrary: ABSENT.map((value) => ({ name, value, valid: true })) },
      );
    case 'fields':
      return argument(name, fc.constantFrom('all', 'citation', ['citation', 'sourceUrl'], 'notes,author'), fc.constantFrom('colour', ['id']));
    case 'sourceUrl':
      return argument(name, fc.constantFrom('https://youtube.com/shorts/demoFlight2?si=x', 'https://x.com/nobody/status/1', 'not an address'), fc.constantFrom(['https://x.com'], `https://x.com/${'a'.repeat(2000)}`));
    default:
      return enumArgument(name, (search[name as 'lang' | 'sort']).enum);
  }
}

/**
 * Unknown argument names, odd ones included. Not `__proto__`: the SDK's request schema drops that
 * key before a tool sees the arguments, so it is ignored (never merged into anything), not named.
 */
const unknownArgument = fc
  .tuple(fc.oneof(fc.constantFrom('colour', 'page', 'Q', 'LIMIT', 'constructor', 'toString', 'hasOwnProperty', 'id', 'arguments', ''), fc.string({ minLength: 1, maxLength: 10 })), fc.jsonValue({ maxDepth: 1 }))
  .filter(([name]) => name !== '__proto__')
  .map(([name, value]): Argument => ({ name, value, valid: false }));

/** The list parameters refused beside sourceUrl (read-params.ts). */
const BESIDE_SOURCE_URL_REFUSED = ['q', 'source', 'format', 'year', 'model', 'author', 'from', 'to', 'since', 'facets', 'cursor'];

/** Whether a value counts as absent (null, "", []). */
function isAbsent(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

function toArguments(entries: readonly Argument[]): CandidateArguments {
  const args: ToolArguments = {};
  for (const entry of entries) Object.defineProperty(args, entry.name, { value: entry.value, enumerable: true, writable: true, configurable: true });
  const mustName = entries.filter((entry) => !entry.valid).map((entry) => entry.name);
  // Beside a work's address only kind, lang, limit, offset and sort are taken (read-params.ts); a cursor there is refused, not checked against offset.
  const bySourceUrl = entries.some((entry) => entry.name === 'sourceUrl' && entry.valid && !isAbsent(entry.value));
  if (bySourceUrl) for (const entry of entries) if (BESIDE_SOURCE_URL_REFUSED.includes(entry.name) && !isAbsent(entry.value) && !mustName.includes(entry.name)) mustName.push(entry.name);
  // A cursor refuses any offset beside it but 0, the schema's default, which tool hosts fill in.
  const offset = entries.find((entry) => entry.name === 'offset');
  if (!bySourceUrl && offset?.valid && !isAbsent(offset.value) && Number(offset.value) !== 0 && entries.some((entry) => entry.name === 'cursor' && !isAbsent(entry.value))) mustName.push('offset');
  return { args, mustName };
}

function listArguments(acceptableKinds: readonly string[]): fc.Arbitrary<CandidateArguments> {
  const names = [...Object.keys(search), 'fields'];
  return fc
    .tuple(
      fc.uniqueArray(fc.constantFrom(...names).chain((name) => searchArgument(name, acceptableKinds)), { maxLength: 5, selector: (entry) => entry.name }),
      fc.oneof({ weight: 5, arbitrary: fc.constant<Argument[]>([]) }, { weight: 1, arbitrary: fc.array(unknownArgument, { minLength: 1, maxLength: 2 }) }),
    )
    .map(([known, unknown]) => toArguments([...known, ...unknown.filter((entry) => !names.includes(entry.name))]));
}

describe('fuzz: MCP tool arguments through the SDK client', function () {
  this.timeout(60_000);
  let server: TestServer;
  let client: Client;
  let records: CanonicalRecord[];

  before(async () => {
    server = await startTestServer({ demo: true, records: fuzzCatalog(200) });
    records = [];
    for await (const record of server.backend.store.streamRecords()) records.push(record);
    client = await connectClient();
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  async function connectClient(): Promise<Client> {
    const connected = new Client({ name: 'archive-fuzz-client', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
    return connected;
  }

  // The SDK's client transport keeps an abort listener per request; a fresh client now and then keeps long runs quiet.
  const CALLS_PER_CLIENT = 500;
  let callsOnClient = 0;
  async function call(name: string, args: ToolArguments): Promise<CallToolResult> {
    if ((callsOnClient += 1) > CALLS_PER_CLIENT) {
      await client.close();
      client = await connectClient();
      callsOnClient = 1;
    }
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }
  const textOf = (result: CallToolResult) => result.content.map((entry) => (entry.type === 'text' ? entry.text : '')).join('\n');

  /** The HTTP query for valid tool arguments (lists comma-separated, a value holding a comma quoted), so the tool can be compared with the API. */
  function httpQuery(args: ToolArguments): string {
    const written = (value: unknown): string => (Array.isArray(value) ? value.map((entry) => (String(entry).includes(',') ? `"${String(entry)}"` : String(entry))).join(',') : String(value));
    const query = Object.entries(args)
      .filter(([name, value]) => name !== 'fields' && !isAbsent(value))
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(written(value))}`);
    return query.length ? `?${query.join('&')}` : '';
  }

  /** The filters of valid tool arguments, for the exact-total oracle. */
  function filtersOf(args: ToolArguments, route: string): ListFilters {
    const list = (value: unknown): string[] | undefined => (isAbsent(value) ? undefined : Array.isArray(value) ? value.map(String) : (splitList(String(value)) ?? []));
    const filters: ListFilters = {};
    for (const name of ['source', 'format', 'kind', 'year', 'model', 'author'] as const) {
      const values = list(args[name]);
      if (values) filters[name] = values;
    }
    if (route === 'timeline') filters.kind = ['timeline'];
    for (const name of ['from', 'to', 'since'] as const) if (!isAbsent(args[name])) filters[name] = String(args[name]);
    return filters;
  }

  for (const [tool, route, kinds] of [['search_specimens', 'specimens', ['gallery', 'timeline']], ['get_timeline', 'timeline', ['timeline']]] as const) {
    it(`${tool}: ${LIST_TOOL_RUNS} generated argument sets give the HTTP result or an error result naming each bad argument`, async function () {
      this.timeout(timeoutFor(LIST_TOOL_RUNS, 80));
      await fc.assert(
        fc.asyncProperty(listArguments(kinds), async ({ args, mustName }) => {
          const what = `${tool} ${JSON.stringify(args)}`;
          const result = await call(tool, args);
          if (mustName.length > 0) {
            expect(result.isError, `${what}: error result`).to.equal(true);
            expect(result.structuredContent, what).to.equal(undefined);
            const text = textOf(result);
            for (const name of mustName) expect(text, `${what}: names ${name}`).to.include(`- ${name}: `);
            return;
          }
          expect(result.isError ?? false, `${what}: ${textOf(result)}`).to.equal(false);
          const list = result.structuredContent as unknown as ListResponse<CompactRecord>;
          expect(textOf(result), `${what}: a summary`).to.match(/^\d+ matching records?/);
          // A work's records by its address: the HTTP answer below is the oracle (checked in read-routes.fuzz.test.ts).
          if (isAbsent(args.sourceUrl) && (isAbsent(args.q) || (typeof args.q === 'string' && isBlank(args.q)))) expect(list.total, `${what}: exact total`).to.equal(matchingIds(records, filtersOf(args, route)).size);
          const path = `/api/v1/${route}${httpQuery(args)}`;
          const http = await server.get(path);
          expect(http.status, path).to.equal(200);
          const fields = isAbsent(args.fields) ? [] : Array.isArray(args.fields) ? (args.fields as ExtraField[]) : ((splitList(String(args.fields)) ?? []) as ExtraField[]);
          expect(list, `${what}: the compact form of ${path}`).to.deep.equal(compactListResult((await http.json()) as ListResponse, fields).list);
        }),
        fuzzParameters(LIST_TOOL_RUNS),
      );
    });
  }

  it(`get_specimen: ${RECORD_TOOL_RUNS} generated ids and languages give the record, an unknown-id error or an error naming the argument`, async function () {
    this.timeout(timeoutFor(RECORD_TOOL_RUNS, 80));
    const idProperty = recordParamsSchema.properties.id;
    const id = fc.oneof(
      { weight: 3, arbitrary: fc.nat().map((index): Argument & { known: boolean } => ({ name: 'id', value: records[index % records.length]?.id, valid: true, known: true })) },
      { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,60}$/).filter((value) => !records.some((record) => record.id === value)).map((value) => ({ name: 'id', value, valid: true, known: false })) },
      {
        weight: 2,
        arbitrary: fc
          .oneof(fc.constantFrom('', null, 'UPPER-case', '-leading', 'a'.repeat(idProperty.maxLength + 1), 'with space', '鹈鹕', '../etc'), STRANGE)
          .map((value) => ({ name: 'id', value, valid: false, known: false })),
      },
    );
    const lang = fc.option(enumArgument('lang', recordParamsSchema.properties.lang.enum), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(fc.option(id, { nil: undefined, freq: 8 }), lang, fc.option(unknownArgument.filter((entry) => !['id', 'lang'].includes(entry.name)), { nil: undefined, freq: 6 }), async (idArgument, langArgument, unknown) => {
        const entries = [idArgument, langArgument, unknown].filter((entry): entry is Argument => entry !== undefined);
        const { args, mustName } = toArguments(entries);
        if (idArgument === undefined) mustName.push('id');
        const what = `get_specimen ${JSON.stringify(args)}`;
        const result = await call('get_specimen', args);
        if (mustName.length > 0) {
          expect(result.isError, what).to.equal(true);
          for (const name of mustName) expect(textOf(result), `${what}: names ${name}`).to.include(`- ${name}: `);
          return;
        }
        if (!(idArgument as Argument & { known: boolean }).known) {
          expect(result.isError, `${what}: unknown id`).to.equal(true);
          expect(result.structuredContent, what).to.equal(undefined);
          return;
        }
        expect(result.isError ?? false, `${what}: ${textOf(result)}`).to.equal(false);
        expect(validators.record(result.structuredContent), `${what}: record schema`).to.equal(true);
        const http = await server.get(`/api/v1/specimens/${String(args.id)}${httpQuery({ ...(args.lang ? { lang: args.lang } : {}) })}`);
        expect(result.structuredContent, what).to.deep.equal(await http.json());
      }),
      fuzzParameters(RECORD_TOOL_RUNS),
    );
  });

  it(`raw JSON-RPC at /mcp: ${RAW_RPC_RUNS} generated messages never crash the server and always get a JSON-RPC answer or a problem`, async function () {
    this.timeout(timeoutFor(RAW_RPC_RUNS, 80));
    const toolName = fc.oneof(fc.constantFrom('search_specimens', 'get_specimen', 'get_timeline'), fc.constantFrom('submit_work', 'SEARCH_SPECIMENS', '', 'search_specimens '), fc.string({ maxLength: 12 }));
    const toolCall = fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), method: fc.constant('tools/call'), params: fc.record({ name: toolName, arguments: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({})) }, { requiredKeys: ['name'] }) });
    const otherRequest = fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0', 2), id: fc.oneof(fc.integer(), fc.constant(null)), method: fc.oneof(fc.constantFrom('tools/list', 'resources/list', 'resources/read', 'prompts/list', 'initialize', 'ping', 'shutdown'), fc.string({ maxLength: 16 })), params: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: ['jsonrpc', 'method'] });
    const message = fc.oneof(
      { weight: 4, arbitrary: toolCall.map((value) => JSON.stringify(value)) },
      { weight: 2, arbitrary: otherRequest.map((value) => JSON.stringify(value)) },
      { weight: 1, arbitrary: fc.array(toolCall, { minLength: 1, maxLength: 3 }).map((value) => JSON.stringify(value)) },
      { weight: 1, arbitrary: fc.oneof(fc.json({ maxDepth: 2 }), fc.constantFrom('{', '', 'null', '[]', '{"jsonrpc":"2.0"}'), fc.string({ maxLength: 40 })) },
    );
    await fc.assert(
      fc.asyncProperty(message, async (body) => {
        const response = await server.get('/mcp', { method: 'POST', body, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } });
        const what = `POST /mcp ${body.slice(0, 200)}`;
        await expectNoServerError(response, what);
        const text = await response.text();
        if (response.status === 202) return;
        const contentType = response.headers.get('content-type') ?? '';
        expect(contentType, what).to.match(/^application\/(json|problem\+json)/);
        const answer = JSON.parse(text) as unknown;
        if (contentType.startsWith('application/problem+json')) {
          expect(validators.problem(answer), what).to.equal(true);
          return;
        }
        const answers = (Array.isArray(answer) ? answer : [answer]) as { jsonrpc?: string; result?: unknown; error?: { code: number; message: string } }[];
        for (const entry of answers) {
          expect(entry.jsonrpc, what).to.equal('2.0');
          expect(entry.result !== undefined || entry.error !== undefined, `${what}: a result or an error`).to.equal(true);
          if (entry.error) expect(entry.error.code, what).to.be.a('number');
        }
        if (response.status >= 400) expect(answers.every((entry) => entry.error !== undefined), `${what}: a ${response.status} carries an error`).to.equal(true);
      }),
      fuzzParameters(RAW_RPC_RUNS),
    );
  });
});
