import { expect } from 'chai';
import type Router from '@koa/router';
import type Koa from 'koa';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

interface MediaType {
  schema?: object;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Response {
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
}
interface Operation {
  operationId: string;
  security?: object[];
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, Response>;
}
type Document = { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, object> } };

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** The operations of one path, keyed by method. */
function operationsOf(path: Record<string, Operation>): [string, Operation][] {
  return Object.entries(path).filter(([method]) => METHODS.includes(method));
}

/**
 * The app's routes in OpenAPI form: `:id` and `*rest` become `{id}` and `{rest}`; an optional
 * group (`/zh{/*rest}`) gives both the address without it and the one with it.
 */
function describedForms(routerPath: string): string[] {
  const group = /\{([^{}]*)\}/.exec(routerPath);
  if (group) {
    const [whole, inner] = group;
    const before = routerPath.slice(0, group.index);
    const after = routerPath.slice(group.index + whole.length);
    return [...describedForms(before + after), ...describedForms(before + inner + after)];
  }
  return [routerPath.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')];
}

/** Every path any router mounted on the app serves. */
function servedPaths(app: Koa): string[] {
  const paths = new Set<string>();
  for (const middleware of app.middleware) {
    const router = (middleware as unknown as { router?: Router }).router;
    // A layer without methods is a router's middleware (router.use), not a route.
    for (const layer of router?.stack ?? []) if (layer.methods.length > 0) for (const path of describedForms(String(layer.path))) paths.add(path);
  }
  return [...paths].sort();
}

describe('GET /openapi.json', () => {
  let server: TestServer;
  let document: Document;
  before(async () => {
    server = await startTestServer({ demo: true });
    document = (await getJson<Document>(server, '/openapi.json')).body;
  });
  after(async () => server.close());

  it('is a valid OpenAPI 3.1 document, version 1.0.0, with the read operations', async () => {
    const { status, body } = await getJson<Document>(server, '/openapi.json');
    expect(status).to.equal(200);
    const result = await new Validator().validate(body as unknown as Parameters<Validator['validate']>[0]);
    expect(result.valid, JSON.stringify(result.errors)).to.equal(true);
    expect(body.openapi).to.equal('3.1.0');
    expect(body.info.version).to.equal('1.0.0');
    const operations = Object.values(body.paths).flatMap((path) => operationsOf(path).map(([, operation]) => operation.operationId));
    expect(operations).to.include.members(['searchSpecimens', 'getSpecimen', 'getTimeline', 'submitWork', 'submitWorks', 'getSubmission', 'exportCatalog', 'callMcp', 'getAgentGuideEn', 'getHealth', 'getReadiness']);
  });

  /*
   * Every route the app serves must be described, with exactly the methods it answers. The test
   * enumerates the routers mounted on the app, builds a URL for each path from the path
   * parameters' examples, asks it with OPTIONS for its `Allow` methods, and compares with the
   * document. To describe a new route, add its operation to the module of its resource in
   * src/openapi/paths/ (or a new module listed in src/openapi/document.ts) through `operation()`
   * from src/openapi/responses.ts: an operationId, a summary, tags, every parameter (path
   * parameters with an `example`), each answer with an example (jsonResponse, textResponse,
   * problem). `operation()` adds the 429, 503 and 500 answers and the rate-limit fields.
   * docs/api.md#the-openapi-description says the same.
   */
  it('describes the timeline\'s sort as it orders: oldest first by default, with q too', async () => {
    const sort = (path: string): Parameter & { description?: string } => document.paths[path]?.get?.parameters?.find((parameter) => parameter.name === 'sort') ?? { name: '', in: '' };
    expect(sort('/api/v1/timeline').description).to.equal('Default oldest, even with q.');
    expect(sort('/api/v1/specimens').description).to.equal('Default relevance with q, else newest.');
    const { body } = await getJson<{ items: { date: string }[] }>(server, '/api/v1/timeline?q=pelican&lang=en');
    const dates = body.items.map((item) => item.date);
    expect(dates.length).to.be.above(1);
    expect(dates).to.deep.equal([...dates].sort());
  });

  it('describes every route the app serves, with the methods it answers, and nothing else', async () => {
    const served = servedPaths(server.app);
    const described = Object.keys(document.paths).sort();
    const undescribed = served.filter((path) => !described.includes(path));
    expect(undescribed, `routes the app serves that /openapi.json does not describe (see src/openapi/paths/): ${undescribed.join(', ')}`).to.deep.equal([]);
    const stale = described.filter((path) => !served.includes(path));
    expect(stale, `paths described that no route serves: ${stale.join(', ')}`).to.deep.equal([]);

    for (const path of served) {
      const operations = operationsOf(document.paths[path] ?? {});
      const parameters = operations.flatMap(([, operation]) => operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
      const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const example = parameters.find((parameter) => parameter.name === name)?.example;
        expect(example, `${path}: path parameter ${name} needs an example`).to.be.a('string');
        return String(example);
      });
      const response = await server.get(url, { method: 'OPTIONS' });
      const allowed = (response.headers.get('allow') ?? '').split(',').map((method) => method.trim().toLowerCase()).filter((method) => method && method !== 'head' && method !== 'options');
      expect(allowed, `${path}: OPTIONS ${url} answered ${response.status} without Allow`).to.have.length.greaterThan(0);
      expect(operations.map(([method]) => method).sort(), `${path}: the methods described`).to.deep.equal(allowed.sort());
    }
  });

  it('gives every operation examples that match their own schemas', async () => {
    const ajv = new Ajv2020({ strict: false });
    (addFormatsModule as unknown as (instance: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: 'openapi', components: document.components });
    let checked = 0;
    const check = (where: string, mediaType: string, media: MediaType): void => {
      const examples = media.examples ? Object.values(media.examples).map((example) => example.value) : [media.example];
      expect(examples.filter((example) => example !== undefined), `${where} ${mediaType}: no example`).to.have.length.greaterThan(0);
      if (!media.schema || !/json/.test(mediaType)) return;
      const validate = ajv.compile({ $id: `example-${(checked += 1)}`, allOf: [rewriteRefs(media.schema)] });
      for (const example of examples) expect(validate(example), `${where} ${mediaType}: ${JSON.stringify(validate.errors)}`).to.equal(true);
    };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of operationsOf(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        for (const [mediaType, media] of Object.entries(operation.requestBody?.content ?? {})) check(`${where} request`, mediaType, media);
        const withContent = Object.entries(operation.responses).filter(([, response]) => response.content);
        expect(withContent, `${where}: no answer with content`).to.have.length.greaterThan(0);
        for (const [status, response] of withContent) for (const [mediaType, media] of Object.entries(response.content ?? {})) check(`${where} ${status}`, mediaType, media);
      }
    }
    expect(checked).to.be.greaterThan(40);
  });

  it('gives every query parameter of a public GET an example the service accepts, sent with the required ones alone', async () => {
    const asQueryValue = (example: unknown): string => (Array.isArray(example) ? example.join(',') : String(example));
    let sent = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      const operation = item.get;
      if (!operation || operation.security?.length || path.includes('{')) continue;
      const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query' && parameter.example !== undefined);
      const required = query.filter((parameter) => parameter.required);
      for (const parameter of query) {
        const search = new URLSearchParams();
        for (const { name, example } of new Set([...required, parameter])) search.set(name, asQueryValue(example));
        const response = await server.get(`${path}?${search.toString()}`, { headers: { 'User-Agent': 'openapi-examples-test/1.0', Accept: 'application/json' } });
        await response.arrayBuffer();
        // 404 is the data's answer (a page past the end of the demo's timeline), not a refused value.
        expect(response.status === 404 || response.status < 400, `GET ${path}?${search.toString()}: ${response.status}`).to.equal(true);
        sent += 1;
      }
    }
    expect(sent).to.be.greaterThan(30);
  });

  /*
   * "Try it out" on the demo must find what the examples name. Every public operation with path
   * parameters is asked with their examples filled in (redirects followed); the ingest ones are
   * left out, since they need a token and name a submission, which no demo holds.
   */
  it('names records, files and pages the demo holds in its path parameter examples, and a sourceUrl example that finds a record', async () => {
    let asked = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      if (!path.includes('{')) continue;
      for (const [method, operation] of operationsOf(item)) {
        if (operation.security?.length) continue;
        const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
        const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => String(parameters.find((parameter) => parameter.name === name)?.example));
        const response = await server.get(url, { method: method.toUpperCase(), headers: { 'User-Agent': 'openapi-examples-test/1.0' } });
        await response.arrayBuffer();
        expect(response.status, `${method.toUpperCase()} ${url} (${path})`).to.equal(200);
        asked += 1;
      }
    }
    expect(asked).to.be.at.least(12);

    for (const path of ['/api/v1/specimens', '/api/v1/timeline']) {
      const example = document.paths[path]?.get?.parameters?.find((parameter) => parameter.name === 'sourceUrl')?.example;
      expect(example, `${path}: sourceUrl example`).to.be.a('string');
      const { status, body } = await getJson<{ total: number }>(server, `${path}?${new URLSearchParams({ sourceUrl: String(example) }).toString()}`);
      expect(status, path).to.equal(200);
      expect(body.total, `${path}?sourceUrl=${String(example)}`).to.be.at.least(1);
    }
  });

  it('shows the record the id example names as the API serves it', async () => {
    const operation = document.paths['/api/v1/specimens/{id}']?.get;
    const id = operation?.parameters?.find((parameter) => parameter.name === 'id')?.example;
    const { status, body } = await getJson(server, `/api/v1/specimens/${String(id)}?lang=en`);
    expect(status).to.equal(200);
    expect(operation?.responses[200]?.content?.['application/json']?.example).to.deep.equal(body);
  });

  it('names the 429 and 503 answers with RateLimit and Retry-After wherever they can happen', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of operationsOf(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        const exempt = path === '/healthz' || path === '/readyz' || path.startsWith('/assets/');
        if (exempt) expect(operation.responses[429], where).to.equal(undefined);
        else {
          expect(Object.keys(operation.responses[429]?.headers ?? {}), where).to.include.members(['Retry-After', 'RateLimit', 'RateLimit-Policy']);
          const success = Object.entries(operation.responses).find(([status]) => /^2/.test(status))?.[1] ?? Object.entries(operation.responses).find(([status]) => /^3/.test(status))?.[1];
          expect(Object.keys(success?.headers ?? {}), `${where}: the first answer's fields`).to.include.members(['RateLimit', 'RateLimit-Policy']);
        }
      }
    }
    expect(Object.keys(document.paths['/api/v1/specimens']?.get?.responses[503]?.headers ?? {})).to.include('Retry-After');
    expect(Object.keys(document.paths['/readyz']?.get?.responses[503]?.headers ?? {})).to.include('Retry-After');
  });

  it('describes no Accept, Content-Type or Authorization header parameter, which OpenAPI 3.1 says tools ignore; /mcp says its Accept in its description', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of operationsOf(item)) {
        const ignored = (operation.parameters ?? []).filter((parameter) => parameter.in === 'header' && ['accept', 'content-type', 'authorization'].includes(parameter.name.toLowerCase()));
        expect(ignored.map((parameter) => parameter.name), `${method.toUpperCase()} ${path}`).to.deep.equal([]);
      }
    }
    expect(document.paths['/mcp']?.post?.description).to.include('`Accept: application/json, text/event-stream`');
  });

  it('describes live responses: a sample validates against its component schemas', async () => {
    const ajv = new Ajv2020({ strict: false });
    (addFormatsModule as unknown as (instance: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: 'openapi', components: document.components });
    const validateAs = (name: string) => ajv.compile({ $ref: `openapi#/components/schemas/${name}` });
    const list = validateAs('SpecimenList');
    const problem = validateAs('Problem');
    for (const path of ['/api/v1/specimens?lang=en', '/api/v1/specimens?q=pelican&limit=3', '/api/v1/timeline', '/api/v1/specimens?format=game&lang=en']) {
      const response = await getJson(server, path);
      expect(list(response.body), `${path}: ${JSON.stringify(list.errors)}`).to.equal(true);
    }
    for (const path of ['/api/v1/specimens?limit=0', '/api/v1/specimens/svg-none-00000000']) {
      const response = await getJson(server, path);
      expect(problem(response.body), JSON.stringify(problem.errors)).to.equal(true);
    }
  });
});

/** A schema from the document with its component references pointed at the registered copy. */
function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? value.replace(/^#\//, 'openapi#/') : rewriteRefs(value)]));
  }
  return schema;
}
