import { expect } from 'chai';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { cleanText, VISIBLE_CHARACTER_PATTERN } from '../../src/domain/localize.ts';
import type { TokenScope } from '../../src/domain/submission.ts';
import { submissionSchema } from '../../src/validation/submission.ts';
import { makeSubmission } from '../helpers/factories.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

/** A valid submission body, with fields replaced or made invalid by overrides. */
function validSubmission(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...makeSubmission(), ...overrides };
}

describe('ingest over HTTP: authentication, validation, idempotency, batches', () => {
  let server: TestServer;
  const secrets: Record<string, string> = {};
  before(async () => {
    server = await startTestServer();
    for (const [name, scopes] of [['maintainer', ['ingest']], ['other-bot', ['ingest']], ['analyst', ['export']], ['reviewer', ['review']]] as [string, TokenScope[]][]) {
      secrets[name] = generateSecret();
      await server.backend.tokens.createToken(name, scopes, secretSha256(secrets[name] ?? ''));
    }
  });
  after(async () => server.close());

  const post = (path: string, body: unknown, token = secrets.maintainer, headers: Record<string, string> = {}) =>
    server.get(path, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers } });

  it('accepts a valid submission with 202, a status URL and Location', async () => {
    const response = await post('/api/v1/ingest', validSubmission());
    expect(response.status).to.equal(202);
    const body = (await response.json()) as { submissionId: string; status: string; statusUrl: string };
    expect(body.status).to.equal('queued');
    expect(body.statusUrl).to.equal(`${server.baseUrl}/api/v1/ingest/${body.submissionId}`);
    expect(response.headers.get('location')).to.equal(body.statusUrl);
    const status = await getJson<Record<string, unknown>>(server, new URL(body.statusUrl).pathname, { headers: { Authorization: `Bearer ${secrets.maintainer}` } });
    expect(status.status).to.equal(200);
    expect(status.body).to.include({ submissionId: body.submissionId, status: 'queued', statusUrl: body.statusUrl, attempts: 0, duplicateOf: null, reason: null });
    expect(status.body).to.have.keys('submissionId', 'status', 'statusUrl', 'submittedAt', 'updatedAt', 'attempts', 'checks', 'recordIds', 'duplicateOf', 'reason', 'reviews', 'batchUrl');
    expect(status.body).to.include({ batchUrl: null });
    expect(status.body.reviews).to.deep.equal([]);
  });

  it('answers 401 with WWW-Authenticate without a token or with a bad one, and 403 without the ingest scope', async () => {
    const missing = await post('/api/v1/ingest', validSubmission(), '');
    expect(missing.status).to.equal(401);
    expect(missing.headers.get('www-authenticate')).to.match(/^Bearer/);
    expect(missing.headers.get('content-type')).to.match(/problem\+json/);
    const bad = await post('/api/v1/ingest', validSubmission(), 'mwa_not-a-real-token');
    expect(bad.status).to.equal(401);
    expect(bad.headers.get('www-authenticate')).to.include('invalid_token');
    const wrongScope = await post('/api/v1/ingest', validSubmission(), secrets.analyst);
    expect(wrongScope.status).to.equal(403);
    expect((await server.get('/api/v1/ingest/sub_x', { headers: { Authorization: 'Basic abc' } })).status).to.equal(401);
  });

  it('names every bad field of an invalid body with 400', async () => {
    const response = await post('/api/v1/ingest', validSubmission({ date: '2025-13-01', format: 'png', media: [], title: { zh: ' ', en: 'ok' }, extra: 1, sourceUrl: 'ftp://x' }));
    expect(response.status).to.equal(400);
    const body = (await response.json()) as { errors: { field: string }[] };
    expect(body.errors.map((error) => error.field).sort()).to.deep.equal(['date', 'extra', 'format', 'media', 'sourceUrl', 'title.zh']);
    const missing = (await (await post('/api/v1/ingest', { sourceUrl: 'https://x.com/a/status/1' })).json()) as { errors: { field: string }[] };
    expect(missing.errors.map((error) => error.field).sort()).to.deep.equal(['author', 'date', 'format', 'media', 'model', 'notes', 'title']);
    const seven = (await (await post('/api/v1/ingest', validSubmission({ media: Array.from({ length: 7 }, (_, i) => `https://pbs.twimg.com/${i}.png`) }))).json()) as { errors: { field: string }[] };
    expect(seven.errors.map((error) => error.field)).to.deep.equal(['media']);
    const badItem = (await (await post('/api/v1/ingest', validSubmission({ media: ['https://ok.example/a.png', 'not a url'] }))).json()) as { errors: { field: string }[] };
    expect(badItem.errors.map((error) => error.field)).to.include('media[1]');
  });

  it('names an http source URL of an unknown host in the same 400 as the other bad fields, in a single body and a batch\'s items', async () => {
    const insecure = { field: 'sourceUrl', message: 'must use https: example.com is not a known source, so its http address cannot be made https by the archive' };
    const single = (await (await post('/api/v1/ingest', validSubmission({ sourceUrl: 'http://example.com/x', author: 'a\nb' }))).json()) as { errors: { field: string; message: string }[] };
    expect(single.errors).to.deep.equal([{ field: 'author', message: 'must be one line: it holds a line break' }, insecure]);
    const withSchemaError = (await (await post('/api/v1/ingest', validSubmission({ sourceUrl: 'http://example.com/x', date: 'soon' }))).json()) as { errors: { field: string }[] };
    expect(withSchemaError.errors.map((error) => error.field)).to.deep.equal(['date', 'sourceUrl']);
    // A batch's items are checked alike, under a bad envelope too, and an item refused beside an accepted one names it.
    const envelope = (await (await post('/api/v1/ingest/batch', { submissions: [validSubmission({ sourceUrl: 'http://example.com/y' })], extra: true })).json()) as { errors: { field: string }[] };
    expect(envelope.errors.map((error) => error.field)).to.deep.equal(['extra', 'submissions[0].sourceUrl']);
    const batch = await post('/api/v1/ingest/batch', { submissions: [validSubmission({ sourceUrl: 'https://github.com/demo-owner/insecure-neighbour' }), validSubmission({ sourceUrl: 'http://example.com/z', format: 'gif' })] });
    expect(batch.status).to.equal(202);
    const items = ((await batch.json()) as { items: { errors?: { field: string }[] }[] }).items;
    expect(items[1]?.errors?.map((error) => error.field)).to.deep.equal(['submissions[1].format', 'submissions[1].sourceUrl']);
  });

  it('gives a field that breaks several of the rules the schema cannot state one entry, its messages joined, in a 400 and in a batch item refused', async () => {
    const joined = ['is not Unicode text: it holds an unpaired surrogate (a \\ud800–\\udfff escape without its pair)', 'must be written in English: it holds no Latin letter', 'must be one line: it holds a line break'].join('; also ');
    const title = { zh: '标题', en: '\ud800\n字' };
    const single = (await (await post('/api/v1/ingest', validSubmission({ title }))).json()) as { errors: { field: string; message: string }[] };
    expect(single.errors).to.deep.equal([{ field: 'title.en', message: joined }]);
    const batch = await post('/api/v1/ingest/batch', { submissions: [validSubmission({ sourceUrl: 'https://github.com/demo-owner/joined-neighbour' }), validSubmission({ title })] });
    expect(batch.status).to.equal(202);
    expect(((await batch.json()) as { items: { errors?: unknown[] }[] }).items[1]?.errors).to.deep.equal([{ field: 'submissions[1].title.en', message: joined }]);
  });

  it('gives one problem per bad field, the most useful one', async () => {
    const response = await post('/api/v1/ingest', validSubmission({ sourceUrl: 'notaurl', format: null, media: ['notaurl'], author: 5 }));
    const body = (await response.json()) as { errors: { field: string; message: string }[] };
    expect(body.errors).to.deep.equal([
      { field: 'sourceUrl', message: 'must be an http or https URL' },
      { field: 'author', message: 'must be string' },
      { field: 'format', message: 'must be one of: svg, animation, 3d, game, video' },
      { field: 'media[0]', message: 'must be an http or https URL' },
    ]);
  });

  it('accepts an http or https scheme written in any case, in sourceUrl and media, as URL schemes are case-insensitive', async () => {
    const upper = await post('/api/v1/ingest', validSubmission({ sourceUrl: 'HTTPS://GITHUB.COM/edge/upper', media: ['HTTPS://PBS.TWIMG.COM/media/upper.png', 'Http://pbs.twimg.com/media/mixed.png'] }));
    expect(upper.status).to.equal(202);
    // An http address of a known source is made https, whatever the case it was written in.
    const mixed = await post('/api/v1/ingest', validSubmission({ sourceUrl: 'Http://GitHub.com/edge/mixed' }));
    expect(mixed.status).to.equal(202);
    const { submissionId } = (await mixed.json()) as { submissionId: string };
    expect((await server.backend.submissions.getSubmission(submissionId))?.submission.sourceUrl).to.equal('https://github.com/edge/mixed');
    const unknownHost = (await (await post('/api/v1/ingest', validSubmission({ sourceUrl: 'HTTP://unknown.example/work' }))).json()) as { errors: { field: string; message: string }[] };
    expect(unknownHost.errors).to.deep.equal([{ field: 'sourceUrl', message: 'must use https: unknown.example is not a known source, so its http address cannot be made https by the archive' }]);
    const otherScheme = (await (await post('/api/v1/ingest', validSubmission({ sourceUrl: 'FTP://github.com/a', media: ['HTTPX://pbs.twimg.com/a.png'] }))).json()) as { errors: { field: string; message: string }[] };
    expect(otherScheme.errors).to.deep.equal([
      { field: 'sourceUrl', message: 'must be an http or https URL' },
      { field: 'media[0]', message: 'must be an http or https URL' },
    ]);
  });

  it('lists the names known at the level of an unknown nested field, and names a repeated preview', async () => {
    const nested = (await (await post('/api/v1/ingest', validSubmission({ title: { zh: '标题', en: 'Title', fr: 'f' }, extra: 1 }))).json()) as { errors: { field: string; message: string }[] };
    expect(nested.errors).to.deep.equal([
      { field: 'extra', message: 'is not a known field; known: sourceUrl, date, model, author, format, title, notes, media, prompt' },
      { field: 'title.fr', message: 'is not a known field; known: zh, en' },
    ]);
    const repeated = (await (await post('/api/v1/ingest', validSubmission({ media: ['https://pbs.twimg.com/a.png', 'https://pbs.twimg.com/b.png', 'https://pbs.twimg.com/a.png'] }))).json()) as { errors: { field: string; message: string }[] };
    expect(repeated.errors).to.deep.equal([{ field: 'media[2]', message: 'repeats media[0]' }]);
  });

  it('names a preview URL that repeats an earlier one once both are parsed: host case, default port, dot segments, escapes', async () => {
    const media = async (urls: string[], overrides: Record<string, unknown> = {}) => ((await (await post('/api/v1/ingest', validSubmission({ media: urls, ...overrides }))).json()) as { errors: { field: string; message: string }[] }).errors;
    expect(await media(['https://A/1.png', 'https://a/1.png'])).to.deep.equal([{ field: 'media[1]', message: 'repeats media[0]' }]);
    expect(await media(['https://pbs.twimg.com/a.png', 'HTTPS://PBS.TWIMG.COM/a.png', 'https://pbs.twimg.com:443/a.png', 'https://pbs.twimg.com/b/../a.png', 'https://pbs.twimg.com/%7e.png', 'https://pbs.twimg.com/%7E.png'])).to.deep.equal([
      { field: 'media[1]', message: 'repeats media[0]' },
      { field: 'media[2]', message: 'repeats media[0]' },
      { field: 'media[3]', message: 'repeats media[0]' },
      { field: 'media[5]', message: 'repeats media[4]' },
    ]);
    // Repeats written alike and repeats that differ only in form are each named, beside the body's other bad fields.
    expect(await media(['https://a/1.png', 'https://a/2.png', 'https://a/1.png', 'https://A/2.png'], { date: 'soon' })).to.deep.equal([
      { field: 'date', message: 'must be a date written YYYY-MM-DD, e.g. 2025-05-01' },
      { field: 'media[2]', message: 'repeats media[0]' },
      { field: 'media[3]', message: 'repeats media[1]' },
    ]);
    // Different queries, fragments or paths are different previews.
    expect((await post('/api/v1/ingest', validSubmission({ sourceUrl: 'https://github.com/demo-owner/distinct-previews', media: ['https://a/1.png', 'https://a/1.png?size=large', 'https://a/1.PNG'] }))).status).to.equal(202);
    const batch = (await (await post('/api/v1/ingest/batch', { submissions: [validSubmission({ media: ['https://a/1.png', 'https://a:443/1.png'] })] })).json()) as { errors: { field: string; message: string }[] };
    expect(batch.errors).to.deep.equal([{ field: 'submissions[0].media[1]', message: 'repeats submissions[0].media[0]' }]);
  });

  it('says what is wrong with an empty field once, in words', async () => {
    const response = await post('/api/v1/ingest', validSubmission({ media: [], title: { zh: '', en: 'ok' } }));
    const body = (await response.json()) as { errors: { field: string; message: string }[] };
    expect(body.errors).to.deep.equal([
      { field: 'title.zh', message: 'must not be blank' },
      { field: 'media', message: 'must hold at least 1 entry' },
    ]);
  });

  it('counts whitespace, control, zero-width and direction characters as blank in every text field', async () => {
    const response = await post('/api/v1/ingest', validSubmission({ model: 'ZW\u200b-Model', title: { zh: '\u200b\u200d', en: 'ok' }, notes: { zh: '\u2066 \u2069', en: 'ok' } }));
    expect(response.status).to.equal(400);
    const body = (await response.json()) as { detail: string; errors: { field: string; message: string }[] };
    expect(body.errors).to.deep.equal([
      { field: 'title.zh', message: 'must not be blank' },
      { field: 'notes.zh', message: 'must not be blank' },
    ]);
    const invisible = (await (await post('/api/v1/ingest', validSubmission({ model: '\ufeff', author: '\u202e\u0007 ', prompt: ' \u200b\n\t' }))).json()) as { errors: { field: string; message: string }[] };
    expect(invisible.errors).to.deep.equal(['model', 'author', 'prompt'].map((field) => ({ field, message: 'must not be blank' })));
    // Fillers that draw nothing, though Unicode does not call them whitespace.
    const fillers = (await (await post('/api/v1/ingest', validSubmission({ title: { zh: '\u3164\u115f\u1160', en: '\u00ad\u034f\u180e\uffa0' } }))).json()) as { errors: { field: string; message: string }[] };
    expect(fillers.errors).to.deep.equal(['title.zh', 'title.en'].map((field) => ({ field, message: 'must not be blank' })));
    expect((await post('/api/v1/ingest', validSubmission({ sourceUrl: 'https://github.com/demo-owner/one-visible', model: '\u200bM', prompt: '\u2066p\u2069' }))).status).to.equal(202);
  });

  it('stores a submission\'s texts as they will be shown, without control, zero-width and direction characters', async () => {
    const response = await post('/api/v1/ingest', validSubmission({
      sourceUrl: 'https://github.com/demo-owner/cleaned',
      model: 'ZW\u200b-Model',
      author: '\u202eDemo\u0007 Owner',
      title: { zh: '鹈\u2066鹕\u2069', en: 'Peli\ufeffcan' },
      notes: { zh: '第一行\n第二行\u200d', en: 'tab\tkept\u0000' },
      prompt: 'Draw\u200b a pelican',
    }));
    expect(response.status).to.equal(202);
    const { submissionId } = (await response.json()) as { submissionId: string };
    const stored = await server.backend.submissions.getSubmission(submissionId);
    expect(stored?.submission).to.deep.include({ model: 'ZW-Model', author: 'Demo Owner', title: { zh: '鹈鹕', en: 'Pelican' }, notes: { zh: '第一行\n第二行', en: 'tab\tkept' }, prompt: 'Draw a pelican' });
  });

  it('refuses text that is not Unicode (an unpaired surrogate), naming each field, and cleaning makes any such text Unicode', async () => {
    // JSON escapes can write half of a surrogate pair; JSON.stringify would write the same escape.
    const body = JSON.stringify(validSubmission({ sourceUrl: 'https://github.com/demo-owner/surrogate', model: 'Sur\ud800Model', title: { zh: '代理\udc00', en: 'Surrogate' } }));
    const response = await post('/api/v1/ingest', body);
    expect(response.status).to.equal(400);
    const problem = (await response.json()) as { errors: { field: string; message: string }[] };
    expect(problem.errors.map((error) => error.field).sort()).to.deep.equal(['model', 'title.zh']);
    expect(problem.errors[0]?.message).to.match(/not Unicode text/);
    const batch = await post('/api/v1/ingest/batch', { submissions: [validSubmission({ sourceUrl: 'https://github.com/demo-owner/surrogate-2', notes: { zh: '注', en: 'x\udfffy' } })] });
    expect(batch.status).to.equal(400);
    expect(((await batch.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).to.deep.equal(['submissions[0].notes.en']);
    expect(cleanText('a\ud800b\udc00c\ud83d\ude00')).to.equal('a\ufffdb\ufffdc\ud83d\ude00');
  });

  it('refuses a title or notes whose Chinese holds no Chinese character or whose English no Latin letter', async () => {
    const response = await post('/api/v1/ingest', validSubmission({ sourceUrl: 'https://github.com/demo-owner/language', title: { zh: 'A pelican', en: 'A pelican' }, notes: { zh: '注 GPT-4o', en: '鹈鹕 123' } }));
    expect(response.status).to.equal(400);
    const problem = (await response.json()) as { errors: { field: string; message: string }[] };
    expect(problem.errors).to.deep.equal([
      { field: 'title.zh', message: 'must be written in Chinese: it holds no Chinese character' },
      { field: 'notes.en', message: 'must be written in English: it holds no Latin letter' },
    ]);
    const mixed = await post('/api/v1/ingest', validSubmission({ sourceUrl: 'https://github.com/demo-owner/language-mixed', title: { zh: 'GPT-4o 画的鹈鹕', en: '鹈鹕 (Pelican)' } }));
    expect(mixed.status, 'each language may quote the other').to.equal(202);
  });

  it('uses one set of invisible characters for blank text and for what cleanText removes', () => {
    const visible = new RegExp(VISIBLE_CHARACTER_PATTERN, 'u');
    const patterns = [submissionSchema.properties.model, submissionSchema.properties.author, submissionSchema.properties.prompt, submissionSchema.$defs.bilingual.properties.zh, submissionSchema.$defs.bilingual.properties.en].map((field) => field.pattern);
    expect(patterns).to.deep.equal(Array(5).fill(VISIBLE_CHARACTER_PATTERN));
    for (let code = 0; code <= 0xffff; code += 1) {
      const character = String.fromCharCode(code);
      const invisible = /\s/u.test(character) || cleanText(character) === '';
      if (visible.test(character) === invisible) expect.fail(`U+${code.toString(16).padStart(4, '0')} is ${invisible ? 'invisible' : 'visible'} but the pattern says otherwise`);
    }
  });

  it('names the body when it is not a JSON object, and a batch item that is not one', async () => {
    for (const [path, body] of [['/api/v1/ingest', []], ['/api/v1/ingest', null], ['/api/v1/ingest', '"text"'], ['/api/v1/ingest/batch', []], ['/api/v1/ingest/batch', null]] as const) {
      const response = await post(path, body === null ? 'null' : body);
      expect(response.status).to.equal(400);
      const problem = (await response.json()) as { detail: string; errors: { field: string; message: string }[] };
      expect(problem.detail, `${path} ${JSON.stringify(body)}`).to.equal('Invalid submission: body.');
      expect(problem.errors).to.have.length(1);
      expect(problem.errors[0]?.field).to.equal('body');
      expect(problem.errors[0]?.message).to.match(path.endsWith('batch') ? /^must be a JSON object: \{ "submissions": \[/ : /^must be a JSON object: a submission, \{ "sourceUrl": …/);
    }
    const items = (await (await post('/api/v1/ingest/batch', { submissions: [null, [validSubmission()]] })).json()) as { detail: string; errors: { field: string; message: string }[] };
    expect(items.detail).to.equal('Invalid submission: submissions[0], submissions[1].');
    expect(items.errors.map((error) => error.field)).to.deep.equal(['submissions[0]', 'submissions[1]']);
    expect(items.errors[0]?.message).to.match(/^must be a JSON object: a submission/);
    const broken = (await (await post('/api/v1/ingest', '{"broken":')).json()) as { errors: { field: string }[] };
    expect(broken.errors).to.deep.equal([{ field: 'body', message: 'must be valid JSON' }]);
  });

  it('answers 415 for a body that is not JSON, 400 for broken JSON and 413 for an oversized body', async () => {
    expect((await server.get('/api/v1/ingest', { method: 'POST', body: 'x=1', headers: { Authorization: `Bearer ${secrets.maintainer}`, 'Content-Type': 'application/x-www-form-urlencoded' } })).status).to.equal(415);
    expect((await post('/api/v1/ingest', '{"broken":')).status).to.equal(400);
    const huge = await post('/api/v1/ingest', validSubmission({ notes: { zh: '长'.repeat(100), en: 'x'.repeat(300 * 1024) } }));
    expect(huge.status).to.equal(413);
  });

  /** GET /api/v1/ingest with a query string, as the maintainer's token. */
  const list = (query: string) => server.get(`/api/v1/ingest?${query}`, { headers: { Authorization: `Bearer ${secrets.maintainer}` } });
  type Problem = { detail: string; errors: { parameter?: string; field?: string; message: string }[] };

  it('says "Invalid parameter" for one bad listing parameter and "Invalid parameters" for several, as the read API does', async () => {
    const one = await list('limit=101');
    expect(one.status).to.equal(400);
    expect(((await one.json()) as Problem).detail).to.equal('Invalid parameter: limit.');
    const two = await list('limit=0&status=lost');
    expect(((await two.json()) as Problem).detail).to.equal('Invalid parameters: status, limit.');
  });

  it('refuses a since that is no calendar date, as the read API refuses from and to', async () => {
    for (const since of ['2026-02-30', '2026-11-31', '2025-02-29', '2026-04-31T08:00:00Z', '2026-13-01', '2026-11-00']) {
      const response = await list(`since=${since}`);
      expect(response.status, since).to.equal(400);
      expect(((await response.json()) as Problem).errors.map((error) => error.parameter), since).to.deep.equal(['since']);
    }
    for (const since of ['2024-02-29', '2026-11-30', '2026-11-20T08:00:00Z', '2026-11-20T08:00+08:00']) expect((await list(`since=${encodeURIComponent(since)}`)).status, since).to.equal(200);
  });

  it('names a bad cursor along with every other bad listing parameter', async () => {
    const all = (await (await list('status=foo&limit=0&since=yesterday&cursor=zzz&bogus=1')).json()) as Problem;
    expect(all.errors.map((error) => error.parameter).sort()).to.deep.equal(['bogus', 'cursor', 'limit', 'since', 'status']);
    const two = (await (await list('cursor=zzz&limit=0')).json()) as Problem;
    expect(two.errors.map((error) => error.parameter).sort()).to.deep.equal(['cursor', 'limit']);
    const alone = await list('cursor=zzz');
    expect(alone.status).to.equal(400);
    expect(((await alone.json()) as Problem).errors).to.deep.equal([{ parameter: 'cursor', message: 'is not a cursor this service gave: pass the nextCursor of a page unchanged, or start again without it' }]);
  });

  it("refuses a listing cursor given with another listing's parameters", async () => {
    for (let i = 0; i < 3; i += 1) expect((await post('/api/v1/ingest', validSubmission({ sourceUrl: `https://github.com/demo-owner/walk-${i}` }))).status).to.equal(202);
    const first = (await (await list('limit=2')).json()) as { nextCursor: string | null };
    expect(first.nextCursor).to.be.a('string');
    const cursor = encodeURIComponent(first.nextCursor ?? '');
    expect((await list(`limit=2&cursor=${cursor}`)).status, 'the same listing').to.equal(200);
    const other = (await (await list(`limit=2&status=queued&cursor=${cursor}`)).json()) as Problem;
    expect(other.errors).to.deep.equal([{ parameter: 'cursor', message: 'belongs to another listing: keep status, since and all of the page that gave it' }]);
  });

  it('refuses a body whose bytes are not UTF-8 (400) and one declared in another charset (415), instead of storing U+FFFD', async () => {
    const json = JSON.stringify(validSubmission({ sourceUrl: 'https://github.com/demo-owner/bytes', model: 'U8MARKModel' }));
    const [before, after] = json.split('MARK') as [string, string];
    const bytes = Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe]), Buffer.from(after)]);
    const notUtf8 = await server.get('/api/v1/ingest', { method: 'POST', body: bytes, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secrets.maintainer}` } });
    expect(notUtf8.status).to.equal(400);
    expect(((await notUtf8.json()) as { errors: unknown[] }).errors).to.deep.equal([{ field: 'body', message: 'must be UTF-8: it holds bytes that are no UTF-8 character' }]);
    const latin1 = await post('/api/v1/ingest', json, undefined, { 'Content-Type': 'application/json; charset=iso-8859-1' });
    expect(latin1.status).to.equal(415);
    expect(((await latin1.json()) as { detail: string }).detail).to.match(/UTF-8 alone/);
    const declared = await post('/api/v1/ingest', json, undefined, { 'Content-Type': 'application/json; charset="UTF-8"' });
    expect(declared.status, 'charset=utf-8 in any case and quoting').to.equal(202);
  });

  it('answers 415 for a compressed body, saying that only identity is read, and reads an identity one', async () => {
    const counts = await server.backend.submissions.countByStatus();
    const json = JSON.stringify(validSubmission({ sourceUrl: 'https://github.com/demo-owner/compressed' }));
    for (const [path, coding, body] of [['/api/v1/ingest', 'gzip', gzipSync(json)], ['/api/v1/ingest', 'br', brotliCompressSync(json)], ['/api/v1/ingest', 'gzip, identity', gzipSync(json)], ['/api/v1/ingest/batch', 'GZIP', gzipSync(JSON.stringify({ submissions: [JSON.parse(json)] }))], ['/api/v1/ingest/sub_x/review', 'deflate', deflateSync('{}')]] as const) {
      const token = path.endsWith('/review') ? secrets.reviewer : secrets.maintainer;
      const response = await server.get(path, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'Content-Encoding': coding, Authorization: `Bearer ${token}` } });
      expect(response.status, `${path} ${coding}`).to.equal(415);
      expect(response.headers.get('accept-encoding')).to.equal('identity');
      const problem = (await response.json()) as Problem & { type: string };
      expect(problem.type).to.match(/\/problems\/unsupported-media-type$/);
      expect(problem.detail).to.equal(`The body's content coding (${coding.toLowerCase()}) is not read here: send the body uncompressed (Content-Encoding: identity, or none).`);
    }
    expect(await server.backend.submissions.countByStatus()).to.deep.equal(counts);
    expect((await post('/api/v1/ingest', json, secrets.maintainer, { 'Content-Encoding': 'identity' })).status).to.equal(202);
  });

  it('refuses other methods with 405 and Allow', async () => {
    const put = await server.get('/api/v1/ingest', { method: 'PUT', headers: { Authorization: `Bearer ${secrets.maintainer}` } });
    expect(put.status).to.equal(405);
    expect(put.headers.get('allow')).to.equal('GET, HEAD, POST, OPTIONS');
    expect((await server.get('/api/v1/ingest/sub_x/review', { headers: { Authorization: `Bearer ${secrets.maintainer}` } })).headers.get('allow')).to.equal('POST, OPTIONS');
    expect((await server.get('/api/v1/ingest/sub_x', { method: 'DELETE' })).headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
  });

  it('shows a submission only to the token that sent it', async () => {
    const { submissionId } = (await (await post('/api/v1/ingest', validSubmission({ sourceUrl: 'https://github.com/demo-owner/visible' }))).json()) as { submissionId: string };
    const own = await server.get(`/api/v1/ingest/${submissionId}`, { headers: { Authorization: `Bearer ${secrets.maintainer}` } });
    expect(own.status).to.equal(200);
    const other = await server.get(`/api/v1/ingest/${submissionId}`, { headers: { Authorization: `Bearer ${secrets['other-bot']}` } });
    expect(other.status).to.equal(404);
    expect((await server.get('/api/v1/ingest/sub_unknown', { headers: { Authorization: `Bearer ${secrets.maintainer}` } })).status).to.equal(404);
  });

  it('replays the first answer for a retried Idempotency-Key and refuses the key with another body', async () => {
    const body = validSubmission({ sourceUrl: 'https://github.com/demo-owner/idempotent' });
    const first = await post('/api/v1/ingest', body, secrets.maintainer, { 'Idempotency-Key': 'retry-1' });
    const again = await post('/api/v1/ingest', body, secrets.maintainer, { 'Idempotency-Key': 'retry-1' });
    expect(first.status).to.equal(202);
    expect(again.status).to.equal(202);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(await again.json()).to.deep.equal(await first.json());
    const counts = await server.backend.submissions.countByStatus();
    const reused = await post('/api/v1/ingest', { ...body, model: 'GPT-5' }, secrets.maintainer, { 'Idempotency-Key': 'retry-1' });
    expect(reused.status).to.equal(422);
    // A header is named as a parameter, as docs/api.md and docs/ingest.md say.
    expect(((await reused.json()) as Problem).errors).to.deep.equal([{ parameter: 'Idempotency-Key', message: 'was used with a different request' }]);
    expect(await server.backend.submissions.countByStatus()).to.deep.equal(counts);
    const otherToken = await post('/api/v1/ingest', body, secrets['other-bot'], { 'Idempotency-Key': 'retry-1' });
    expect(otherToken.status).to.equal(202);
    expect(otherToken.headers.get('idempotent-replayed')).to.equal(null);
  });

  it('names a bad Idempotency-Key in the same 400 as the body\'s bad fields', async () => {
    const longKey = { 'Idempotency-Key': 'k'.repeat(256) };
    const keyProblem = { parameter: 'Idempotency-Key', message: 'must be 1–255 visible ASCII characters' };
    const counts = await server.backend.submissions.countByStatus();
    const empty = (await (await post('/api/v1/ingest', {}, secrets.maintainer, longKey)).json()) as Problem;
    expect(empty.errors.map((error) => error.field ?? error.parameter)).to.deep.equal(['sourceUrl', 'date', 'model', 'author', 'format', 'title', 'notes', 'media', 'Idempotency-Key']);
    expect(empty.errors.at(-1)).to.deep.equal(keyProblem);
    expect(empty.detail).to.equal('Invalid submission: sourceUrl, date, model, author, format, title, notes, media. Idempotency-Key must be 1–255 visible ASCII characters.');
    const notJson = (await (await post('/api/v1/ingest', '{"broken":', secrets.maintainer, longKey)).json()) as Problem;
    expect(notJson.errors).to.deep.equal([{ field: 'body', message: 'must be valid JSON' }, keyProblem]);
    expect(notJson.detail).to.equal('The body is not valid JSON. Idempotency-Key must be 1–255 visible ASCII characters.');
    const httpUnknownHost = (await (await post('/api/v1/ingest', validSubmission({ sourceUrl: 'http://unknown.example/work' }), secrets.maintainer, longKey)).json()) as Problem;
    expect(httpUnknownHost.errors.map((error) => error.field ?? error.parameter)).to.deep.equal(['sourceUrl', 'Idempotency-Key']);
    const batch = (await (await post('/api/v1/ingest/batch', { submissions: [validSubmission({ format: 'gif' })] }, secrets.maintainer, longKey)).json()) as Problem;
    expect(batch.errors.map((error) => error.field ?? error.parameter)).to.deep.equal(['submissions[0].format', 'Idempotency-Key']);
    const envelope = (await (await post('/api/v1/ingest/batch', { submissions: [] }, secrets.maintainer, longKey)).json()) as Problem;
    expect(envelope.errors.map((error) => error.field ?? error.parameter)).to.deep.equal(['submissions', 'Idempotency-Key']);
    // A body with something to accept is refused for its key alone, and nothing is stored.
    const keyAlone = await post('/api/v1/ingest/batch', { submissions: [validSubmission({ sourceUrl: 'https://github.com/demo-owner/bad-key' }), validSubmission({ format: 'gif' })] }, secrets.maintainer, longKey);
    expect(keyAlone.status).to.equal(400);
    expect(((await keyAlone.json()) as Problem).errors).to.deep.equal([keyProblem]);
    expect(await server.backend.submissions.countByStatus()).to.deep.equal(counts);
  });

  it('refuses an empty Idempotency-Key with 400 naming it, as any other key that is not 1–255 visible ASCII characters', async () => {
    const counts = await server.backend.submissions.countByStatus();
    for (const key of ['', ' ']) {
      const response = await post('/api/v1/ingest', validSubmission({ sourceUrl: 'https://github.com/demo-owner/empty-key' }), secrets.maintainer, { 'Idempotency-Key': key });
      expect(response.status, JSON.stringify(key)).to.equal(400);
      expect(((await response.json()) as Problem).errors).to.deep.equal([{ parameter: 'Idempotency-Key', message: 'must be 1–255 visible ASCII characters' }]);
    }
    const withBadBody = (await (await post('/api/v1/ingest', { ...validSubmission(), date: 'soon' }, secrets.maintainer, { 'Idempotency-Key': '' })).json()) as Problem;
    expect(withBadBody.errors.map((error) => error.field ?? error.parameter)).to.deep.equal(['date', 'Idempotency-Key']);
    expect(await server.backend.submissions.countByStatus()).to.deep.equal(counts);
  });

  it('accepts every valid item of a batch even when neighbours are invalid', async () => {
    const response = await post('/api/v1/ingest/batch', {
      submissions: [validSubmission({ sourceUrl: 'https://github.com/demo-owner/batch-1' }), validSubmission({ date: 'yesterday' }), validSubmission({ sourceUrl: 'https://github.com/demo-owner/batch-3' })],
    });
    expect(response.status).to.equal(202);
    const body = (await response.json()) as { accepted: number; rejected: number; items: { index: number; status: string; statusUrl?: string; errors?: { field: string }[] }[] };
    expect(body).to.include({ accepted: 2, rejected: 1 });
    expect(body.items.map((item) => item.status)).to.deep.equal(['queued', 'rejected', 'queued']);
    expect(body.items[1]?.errors?.map((error) => error.field)).to.deep.equal(['submissions[1].date']);
    for (const item of [body.items[0], body.items[2]]) {
      const status = await server.get(new URL(item?.statusUrl ?? '').pathname, { headers: { Authorization: `Bearer ${secrets.maintainer}` } });
      expect(status.status).to.equal(200);
    }
  });

  it('refuses an address carrying a user name or password, so that the secret is never stored', async () => {
    const base = validSubmission();
    const media = base.media as string[];
    const refused = await post('/api/v1/ingest', { ...base, sourceUrl: 'https://user:hunter2@github.com/a/b', media: [media[0], 'https://me@pbs.twimg.com/media/x.png'] });
    expect(refused.status).to.equal(400);
    const errors = ((await refused.json()) as { errors: { field: string; message: string }[] }).errors;
    expect(errors).to.deep.include.members([
      { field: 'sourceUrl', message: 'must not carry a user name or password' },
      { field: 'media[1]', message: 'must not carry a user name or password' },
    ]);
  });

  it('refuses fields far larger than a submission holds unread, naming them and the other bad fields, and nesting of any depth with a 400', async () => {
    const wide = await post('/api/v1/ingest', validSubmission({ media: Array.from({ length: 2500 }, (_, i) => `h${i}`), date: 'yesterday' }));
    expect(wide.status).to.equal(400);
    const wideErrors = ((await wide.json()) as { errors: { field: string; message: string }[] }).errors;
    expect(wideErrors.map((error) => error.field)).to.have.members(['media', 'date']);
    expect(wideErrors.find((error) => error.field === 'media')?.message).to.match(/^holds more than 64 JSON values: .*not checked further$/);
    // Nesting deeper than any stack: a 400 naming the field, not a 500.
    const deep = await post('/api/v1/ingest', `${JSON.stringify(validSubmission()).slice(0, -1)},"notes":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(deep.status).to.equal(400);
    expect(((await deep.json()) as { errors: { field: string; message: string }[] }).errors).to.deep.equal([{ field: 'notes', message: "nests more than 4 levels deep: far more than a submission's notes may (media holds at most 6 previews); not checked further" }]);
    // Many unknown fields are one problem, not one each; in a batch, named by the item.
    const fields = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`x${i}`, i]));
    const many = await post('/api/v1/ingest/batch', { submissions: [{ ...validSubmission(), ...fields }] });
    expect(many.status).to.equal(400);
    const manyErrors = ((await many.json()) as { errors: { field: string; message: string }[] }).errors;
    expect(manyErrors).to.have.length(1);
    expect(manyErrors[0]?.field).to.equal('submissions[0]');
    expect(manyErrors[0]?.message).to.match(/^holds 1008 fields, where a submission takes these 9: sourceUrl, /);
  });

  it('refuses a batch with no valid item, an empty batch and one over 100', async () => {
    const none = await post('/api/v1/ingest/batch', { submissions: [validSubmission({ format: 'gif' })] });
    expect(none.status).to.equal(400);
    expect(((await none.json()) as { errors: { field: string }[] }).errors[0]?.field).to.equal('submissions[0].format');
    expect((await post('/api/v1/ingest/batch', { submissions: [] })).status).to.equal(400);
    const envelopeAndItem = await post('/api/v1/ingest/batch', { submissions: [validSubmission({ format: 'gif', date: 'yesterday' })], extra: 1 });
    expect(envelopeAndItem.status).to.equal(400);
    const named = ((await envelopeAndItem.json()) as { errors: { field: string }[] }).errors.map((error) => error.field);
    expect(named, "a bad envelope's problem names its items' bad fields too").to.have.members(['extra', 'submissions[0].format', 'submissions[0].date']);
    expect((await post('/api/v1/ingest/batch', { submissions: Array.from({ length: 101 }, () => validSubmission()) })).status).to.equal(400);
    expect((await post('/api/v1/ingest/batch', [validSubmission()])).status).to.equal(400);
  });
});
