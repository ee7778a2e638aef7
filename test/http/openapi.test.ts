import { expect } from 'chai';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

type Document = { openapi: string; info: { version: string }; paths: Record<string, Record<string, { operationId: string }>>; components: { schemas: Record<string, object> } };

describe('GET /openapi.json', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ demo: true });
  });
  after(async () => server.close());

  it('is a valid OpenAPI 3.1 document, version 1.0.0, with the read operations', async () => {
    const { status, body } = await getJson<Document>(server, '/openapi.json');
    expect(status).to.equal(200);
    const result = await new Validator().validate(body as unknown as Parameters<Validator['validate']>[0]);
    expect(result.valid, JSON.stringify(result.errors)).to.equal(true);
    expect(body.openapi).to.equal('3.1.0');
    expect(body.info.version).to.equal('1.0.0');
    const operations = Object.values(body.paths).flatMap((path) => Object.values(path).map((operation) => operation.operationId));
    expect(operations).to.include.members(['searchSpecimens', 'getSpecimen', 'getTimeline', 'submitWork', 'submitWorks', 'getSubmission', 'exportCatalog']);
  });

  it('describes live responses: a sample validates against its component schemas', async () => {
    const { body } = await getJson<Document>(server, '/openapi.json');
    const ajv = new Ajv2020({ strict: false });
    (addFormatsModule as unknown as (instance: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: 'openapi', components: body.components });
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
