import { expect } from 'chai';
import { undecodableParameters } from '../../src/http/query.ts';
import { MAX_LISTED_ERRORS } from '../../src/errors.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

interface Problem {
  detail: string;
  errors: { parameter: string; message: string }[];
  errorsOmitted?: number;
}

describe('query strings that are not percent-encoded UTF-8, and problems naming many parameters', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ demo: true });
  });
  after(async () => server.close());

  it('names each parameter whose name or value is not percent-encoded UTF-8, with the value as written', () => {
    const names = (querystring: string): string[] => [...undecodableParameters(querystring).keys()];
    expect(names('q=%E9%B9%88%E9%B9%95&lang=en&limit=2')).to.deep.equal([]);
    expect([...undecodableParameters('q=%E0%A4%A&lang=en')]).to.deep.equal([['q', '%E0%A4%A']]);
    expect(names('q=pelican%ZZ&source=%E0%A4&q=%')).to.deep.equal(['q', 'source']);
    expect(names('%ZZ=1&a+b=%41')).to.deep.equal(['%ZZ']);
    expect(names('&&q&=')).to.deep.equal([]);
  });

  it('answers 400 naming the parameter, with every other bad one, instead of searching for the escape as text', async () => {
    for (const query of ['q=%E0%A4%A', 'q=pelican%ZZ&lang=en', 'q=%E9%B9']) {
      const { status, headers, body } = await getJson<Problem>(server, `/api/v1/specimens?${query}`);
      expect(status, query).to.equal(400);
      expect(headers.get('content-type'), query).to.match(/^application\/problem\+json/);
      expect(body.errors.map((error) => error.parameter), query).to.deep.equal(['q']);
      expect(body.errors[0]?.message, query).to.match(/percent-encoded UTF-8/);
    }
    const quoted = await getJson<Problem>(server, '/api/v1/specimens?q=%E0%A4%A');
    expect(quoted.body.errors[0]?.message, 'the value as written').to.match(/^is not percent-encoded UTF-8 \("%E0%A4%A"\): /);
    const several = await getJson<Problem>(server, '/api/v1/timeline?q=%ZZ&limit=500&cursor=x');
    expect(several.body.errors.map((error) => error.parameter).sort()).to.deep.equal(['cursor', 'limit', 'q']);
    const found = await getJson<{ total: number }>(server, '/api/v1/specimens?q=%E9%B9%88%E9%B9%95');
    expect(found.status).to.equal(200);
    expect(found.body.total).to.be.greaterThan(0);
  });

  it('refuses it on the record, sources, removals and export addresses too; pages read it as text, as browsers send it', async () => {
    for (const path of ['/api/v1/specimens/svg-gpt-4-8d5be076?lang=%ZZ', '/api/v1/removals?since=%ZZ', '/data/catalog.csv?excel=%E0']) {
      const response = await server.get(path);
      const problem = (await response.json()) as Problem;
      expect(response.status, path).to.equal(400);
      expect(problem.errors[0]?.message, path).to.match(/percent-encoded UTF-8/);
    }
    expect((await getJson(server, '/api/v1/sources?x=%ZZ')).status, 'a resource that takes no parameter').to.equal(400);
    const page = await server.get('/en/?q=%E0%A4%A', { headers: { Accept: 'text/html' } });
    await page.text();
    expect(page.status).to.equal(200);
  });

  it(`lists at most ${MAX_LISTED_ERRORS} bad parameters and counts the rest`, async () => {
    const names = Array.from({ length: 1500 }, (_, i) => `a${i}`);
    const response = await server.get(`/api/v1/specimens?${names.map((name) => `${name}=1`).join('&')}`);
    const text = await response.text();
    expect(response.status).to.equal(400);
    const body = JSON.parse(text) as Problem;
    expect(body.errors.map((error) => error.parameter)).to.deep.equal(names.slice(0, MAX_LISTED_ERRORS));
    expect(body.errorsOmitted).to.equal(1500 - MAX_LISTED_ERRORS);
    expect(body.detail).to.match(new RegExp(`a49 and ${1500 - MAX_LISTED_ERRORS} more\\.$`));
    expect(Buffer.byteLength(text), 'an answer of a few kilobytes, not hundreds').to.be.below(20_000);
    const few = await getJson<Problem>(server, '/api/v1/specimens?a=1&b=2');
    expect(few.body.errorsOmitted, 'no count when every error is listed').to.equal(undefined);
  });
});
