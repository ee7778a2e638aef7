import { expect } from 'chai';
import { checkSourceIdentity as checkIdentity } from '../../../src/domain/checks/source-identity.ts';
import { checkDate, snowflakeTime } from '../../../src/domain/checks/date.ts';
import { checkPreviewHosts, checkPreviewOwnership } from '../../../src/domain/checks/preview-ownership.ts';
import { BUILT_IN_SOURCE_TABLE, SourceTable } from '../../../src/domain/sources.ts';
import type { Submission } from '../../../src/domain/submission.ts';
import { makeSubmission } from '../../helpers/factories.ts';

const checkSourceIdentity = (submission: Submission) => checkIdentity(submission, BUILT_IN_SOURCE_TABLE);
const hosts = (urls: string[], source: string | undefined, upload: string[]) => checkPreviewHosts(urls, source, upload, BUILT_IN_SOURCE_TABLE);


/** An x.com status id that encodes the given instant. */
function statusIdAt(iso: string): string {
  return ((BigInt(Date.parse(iso) - 1288834974657) << 22n) + 12345n).toString();
}

describe('publisher checks: source identity', () => {
  it('passes a known https source, canonicalises it and records the handle', () => {
    const result = checkSourceIdentity(makeSubmission({ sourceUrl: 'https://twitter.com/Demo_Mira/status/1790000000000000000?s=20', author: '@demo_mira' }));
    expect(result.verdict.outcome).to.equal('pass');
    expect(result.canonicalUrl).to.equal('https://x.com/demo_mira/status/1790000000000000000');
    expect(result).to.include({ source: 'x', handle: 'demo_mira' });
  });

  it('fails http, unknown hosts and a handle that is not the account of the URL', () => {
    expect(checkSourceIdentity(makeSubmission({ sourceUrl: 'http://github.com/a/b' })).verdict.detail).to.match(/https/);
    const unknown = checkSourceIdentity(makeSubmission({ sourceUrl: 'https://unknown.example/work?utm_source=x' }));
    expect(unknown.verdict).to.include({ outcome: 'fail' });
    expect(unknown.verdict.detail).to.include('npm run sources');
    expect(unknown).to.include({ canonicalUrl: 'https://unknown.example/work', source: 'web' });
    expect(checkSourceIdentity(makeSubmission({ author: '@someone_else' })).verdict.detail).to.match(/@demo-owner/);
  });

  it('reads a scheme and host written in capitals as the lower-case canonical URL', () => {
    const result = checkSourceIdentity(makeSubmission({ sourceUrl: 'HTTPS://GITHUB.COM/Demo-Owner/Upper', author: '@demo-owner' }));
    expect(result.verdict.outcome, result.verdict.detail).to.equal('pass');
    expect(result).to.include({ canonicalUrl: 'https://github.com/demo-owner/upper', source: 'github', handle: 'demo-owner' });
  });

  it('accepts an author written as a name whatever the handle', () => {
    expect(checkSourceIdentity(makeSubmission({ author: 'Someone Else' })).verdict.outcome).to.equal('pass');
  });

  it('compares a handle with a GitHub owner whatever the case of either', () => {
    const result = checkSourceIdentity(makeSubmission({ sourceUrl: 'https://github.com/Demo-Lin/pelican-svg', author: '@demo-lin' }));
    expect(result.verdict.outcome).to.equal('pass');
    expect(result).to.include({ canonicalUrl: 'https://github.com/demo-lin/pelican-svg', handle: 'demo-lin' });
  });

  it('passes an x.com status shared without a handle, saying the author was not compared with an account', () => {
    const result = checkSourceIdentity(makeSubmission({ sourceUrl: 'https://twitter.com/i/web/status/1790000000000000000', author: '@demo_mira' }));
    expect(result.verdict.outcome).to.equal('pass');
    expect(result.verdict.detail).to.match(/names no account/);
    expect(result).to.include({ canonicalUrl: 'https://x.com/i/web/status/1790000000000000000', source: 'x' });
    expect(result.handle).to.equal(undefined);
  });
});

describe('publisher checks: source identity names one work', () => {
  const outcome = (sourceUrl: string, table = BUILT_IN_SOURCE_TABLE): string => checkIdentity(makeSubmission({ sourceUrl, author: 'Someone' }), table).verdict.outcome;

  it('fails the addresses of a known source that name no work: home, search, profile, sign-in and the site\'s own pages', () => {
    const noWork = [
      'https://x.com/',
      'https://x.com/search?q=cats',
      'https://x.com/audit_zz',
      'https://x.com/audit_q/likes',
      'https://x.com/audit_q/status/abc',
      'https://x.com/audit_q/status/1790000000000000001x',
      'https://github.com/',
      'https://github.com/login',
      'https://github.com/audit_zz',
      'https://github.com/orgs/demo/repositories',
      'https://github.com/search?q=pelican',
      'https://www.youtube.com/',
      'https://www.youtube.com/@channel',
      'https://huggingface.co/',
      'https://huggingface.co/models',
      'https://huggingface.co/docs/transformers',
      'https://www.reddit.com/r/svg',
      'https://www.bilibili.com/',
      'https://weibo.com/u/1234567890',
      'https://news.ycombinator.com/news',
      'https://codepen.io/demo',
      'https://weibo.com/hot/search',
      'https://weibo.com/ajax/statuses',
      'https://github.com/users/owner/projects/1',
    ];
    for (const url of noWork) expect(outcome(url), url).to.equal('fail');
    const detail = checkIdentity(makeSubmission({ sourceUrl: 'https://x.com/audit_zz' }), BUILT_IN_SOURCE_TABLE).verdict.detail;
    expect(detail).to.equal('https://x.com/audit_zz names no single work on X (Twitter) (a home page, search, profile or sign-in page does not); a work\'s address looks like https://x.com/{account}/status/{number}.');
  });

  it('passes the addresses of works on every built-in source', () => {
    const works = [
      'https://x.com/demo_mira/status/1790000000000000000/photo/1',
      'https://x.com/i/web/status/1790000000000000000',
      'https://github.com/demo-owner/pelican',
      'https://github.com/demo-owner/pelican/blob/main/pelican.svg',
      'https://github.com/login-tools/pelican',
      'https://gist.github.com/demo/0123456789abcdef0123',
      'https://gist.github.com/0123456789abcdef0123',
      'https://www.reddit.com/r/svg/comments/abc123/a_pelican/',
      'https://www.bilibili.com/video/BV1xx411c7mD',
      'https://weibo.com/1234567890/N0aBcDeFg',
      'https://m.weibo.cn/status/4987654321012345',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&feature=share',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'https://news.ycombinator.com/item?id=42',
      'https://huggingface.co/spaces/demo/pelican',
      'https://huggingface.co/demo/pelican-model',
      'https://codepen.io/demo/pen/AbCdEf',
      'https://codepen.io/team/demo-team/pen/abcXYZ',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLdemo123',
      'https://youtu.be/dQw4w9WgXcQ?list=PLdemo123',
    ];
    for (const url of works) expect(outcome(url), url).to.equal('pass');
  });

  it("accepts the platforms' short and embedded hosts as their source, at the platform's own address, and fails what names no work there", () => {
    const accepted = (sourceUrl: string) => {
      const result = checkIdentity(makeSubmission({ sourceUrl, author: 'Someone' }), BUILT_IN_SOURCE_TABLE);
      expect(result.verdict.outcome, `${sourceUrl}: ${result.verdict.detail}`).to.equal('pass');
      return [result.source, result.canonicalUrl];
    };
    expect(accepted('https://redd.it/1eg3dm0')).to.deep.equal(['reddit', 'https://reddit.com/comments/1eg3dm0']);
    expect(accepted('https://music.youtube.com/watch?v=dQw4w9WgXcQ&si=share')).to.deep.equal(['youtube', 'https://youtube.com/watch?v=dQw4w9WgXcQ']);
    expect(accepted('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1')).to.deep.equal(['youtube', 'https://youtube.com/embed/dQw4w9WgXcQ']);
    expect(accepted('https://hf.co/spaces/Demo/Pelican')).to.deep.equal(['huggingface', 'https://huggingface.co/spaces/Demo/Pelican']);
    expect(accepted('https://hf.co/datasets/demo/pelicans')).to.deep.equal(['huggingface', 'https://huggingface.co/datasets/demo/pelicans']);
    for (const url of ['https://redd.it/', 'https://redd.it/r/svg', 'https://hf.co/models', 'https://music.youtube.com/', 'https://www.youtube-nocookie.com/']) expect(outcome(url), url).to.equal('fail');
    const shortLink = checkIdentity(makeSubmission({ sourceUrl: 'https://b23.tv/AbCdEf1' }), BUILT_IN_SOURCE_TABLE);
    expect(shortLink.source, 'a short link only a request resolves').to.equal('web');
    // It is told to submit the video's own address, not that a maintainer can add the host (the docs keep b23.tv unknown).
    expect(shortLink.verdict.detail).to.include('Submit the address the link leads to (https://www.bilibili.com/video/BV…)').and.not.include('npm run sources');
  });

  it('names no account where an address holds none: a gist without its user, a mobile Weibo post, a numeric Weibo id, a team pen', () => {
    const handleOf = (sourceUrl: string, author: string) => {
      const result = checkIdentity(makeSubmission({ sourceUrl, author }), BUILT_IN_SOURCE_TABLE);
      expect(result.verdict.outcome, `${sourceUrl}: ${result.verdict.detail}`).to.equal('pass');
      return result.handle;
    };
    expect(handleOf('https://gist.github.com/0123456789abcdef0123456789abcdef', '@someuser')).to.equal(undefined);
    expect(handleOf('https://gist.github.com/someuser/0123456789abcdef0123456789abcdef', '@someuser')).to.equal('someuser');
    expect(handleOf('https://m.weibo.cn/status/4976543210123456', '@demolin')).to.equal(undefined);
    expect(handleOf('https://m.weibo.cn/detail/4976543210123456', '@demolin')).to.equal(undefined);
    expect(handleOf('https://weibo.com/1234567890/N0aBcDeFg', '@演示林')).to.equal(undefined);
    expect(handleOf('https://weibo.com/demolin/N0aBcDeFg', '@demolin')).to.equal('demolin');
    expect(handleOf('https://codepen.io/team/demo-team/pen/abcXYZ', '@someone')).to.equal(undefined);
    expect(handleOf('https://codepen.io/demo/debug/abcXYZ', '@demo')).to.equal('demo');
    const other = checkIdentity(makeSubmission({ sourceUrl: 'https://codepen.io/demo/live/abcXYZ', author: '@someone' }), BUILT_IN_SOURCE_TABLE);
    expect(other.verdict.detail, 'a pen in any view names its account').to.match(/belongs to @demo/);
  });

  it('takes the built-in rule for a stored built-in source written without one, and none when a maintainer empties it', () => {
    const stored = BUILT_IN_SOURCE_TABLE.definitions.map(({ workPattern: _pattern, workForm: _form, ...definition }) => definition);
    expect(outcome('https://x.com/audit_zz', new SourceTable(stored))).to.equal('fail');
    const opened = stored.map((definition) => (definition.key === 'x' ? { ...definition, workPattern: '' } : definition));
    expect(outcome('https://x.com/audit_zz', new SourceTable(opened))).to.equal('pass');
    const added = new SourceTable([...stored, { key: 'mastodon', label: { zh: 'Mastodon', en: 'Mastodon' }, hosts: ['mastodon.social'], mediaHosts: [] }]);
    expect(outcome('https://mastodon.social/@demo', added), 'a source without a rule takes any address').to.equal('pass');
  });
});

describe('publisher checks: date', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('accepts real past dates from 2015, with one day of slack for the future', () => {
    expect(checkDate(makeSubmission({ date: '2025-03-01' }), undefined, now).outcome).to.equal('pass');
    expect(checkDate(makeSubmission({ date: '2026-11-23' }), undefined, now).outcome).to.equal('pass');
  });

  it('refuses impossible, future and too early dates', () => {
    expect(checkDate(makeSubmission({ date: '2025-02-30' }), undefined, now).outcome).to.equal('fail');
    expect(checkDate(makeSubmission({ date: '2026-12-01' }), undefined, now).detail).to.match(/future/);
    expect(checkDate(makeSubmission({ date: '2014-12-31' }), undefined, now).detail).to.match(/before 2015/);
  });

  it('requires agreement within one day with an x.com status id', () => {
    const url = `https://x.com/demo/status/${statusIdAt('2025-06-10T23:30:00Z')}`;
    expect(new Date(snowflakeTime(url) ?? 0).toISOString()).to.equal('2025-06-10T23:30:00.000Z');
    expect(checkDate(makeSubmission({ date: '2025-06-11' }), url, now).outcome).to.equal('pass');
    expect(checkDate(makeSubmission({ date: '2025-06-09' }), url, now).outcome).to.equal('pass');
    expect(checkDate(makeSubmission({ date: '2025-06-13' }), url, now).detail).to.match(/2025-06-10/);
    const shared = `https://x.com/i/web/status/${statusIdAt('2025-06-10T23:30:00Z')}`;
    expect(checkDate(makeSubmission({ date: '2025-06-13' }), shared, now).detail, 'a status shared without a handle').to.match(/2025-06-10/);
  });
});

describe('publisher checks: preview ownership', () => {
  it('accepts the source host, its media hosts and upload hosts', () => {
    expect(hosts(['https://raw.githubusercontent.com/a/b/c.png', 'https://github.com/a/b/raw/main/d.png'], 'github', []).verdict.outcome).to.equal('pass');
    expect(hosts(['http://127.0.0.1:4000/a.png'], 'x', ['127.0.0.1:4000']).verdict.outcome).to.equal('pass');
    expect(hosts(['https://uploads.archive.test/a.png'], 'x', ['uploads.archive.test']).verdict.outcome).to.equal('pass');
    expect(hosts(['HTTPS://PBS.TWIMG.COM/media/a.png', 'HTTP://127.0.0.1:4000/b.png'], 'x', ['127.0.0.1:4000']).verdict.outcome).to.equal('pass');
  });

  it('names every preview on a host that is not the source\'s, and says they were not fetched', () => {
    const found = hosts(['https://pbs.twimg.com/a.png', 'https://i.imgur.com/b.png', 'http://127.0.0.1:4001/c.png'], 'x', ['127.0.0.1:4000']);
    expect(found.verdict.outcome).to.equal('fail');
    expect(found.strangers).to.deep.equal(['https://i.imgur.com/b.png', 'http://127.0.0.1:4001/c.png']);
    expect(found.verdict.detail).to.include('i.imgur.com').and.include('127.0.0.1:4001').and.not.include('pbs.twimg.com/a.png');
    expect(found.verdict.detail).to.match(/not fetched/);
  });

  it('says how a preview of another source\'s record was found: byte-identical, or perceptual with the distance', () => {
    const allowed = hosts(['https://pbs.twimg.com/a.png', 'https://pbs.twimg.com/b.png'], 'x', []);
    const identical = checkPreviewOwnership(allowed, 'x', [{ mediaUrl: 'https://pbs.twimg.com/a.png', recordId: 'svg-x-1', source: 'reddit', likeness: 'identical', distance: 0, verdict: 'duplicate' }]);
    expect(identical.outcome).to.equal('fail');
    expect(identical.detail).to.equal('https://pbs.twimg.com/a.png is byte-identical to a preview of svg-x-1 from source reddit.');
    const similar = checkPreviewOwnership(allowed, 'x', [{ mediaUrl: 'https://pbs.twimg.com/b.png', recordId: 'svg-x-2', source: 'reddit', likeness: 'perceptual', distance: 31, verdict: 'ambiguous' }]);
    expect(similar.detail).to.equal('https://pbs.twimg.com/b.png is perceptually similar (blockhash distance 31 of 256) to a preview of svg-x-2 from source reddit.');
    expect(similar.detail).not.to.match(/already the preview/);
    expect(checkPreviewOwnership(allowed, 'x', [{ mediaUrl: 'https://pbs.twimg.com/b.png', recordId: 'svg-x-3', source: 'x', likeness: 'identical', distance: 0, verdict: 'duplicate' }]).outcome).to.equal('pass');
  });

  it('never reports a pass for the comparison it could not make', () => {
    const allowed = hosts(['https://pbs.twimg.com/a.png'], 'x', []);
    expect(checkPreviewOwnership(allowed, 'x', undefined, true).outcome).to.equal('pending');
    expect(checkPreviewOwnership(allowed, 'x', undefined).outcome).to.equal('skipped');
  });

  it('reads the hosts from the table it is given', () => {
    const table = new SourceTable([{ key: 'mastodon', label: { zh: '长毛象', en: 'Mastodon' }, hosts: ['mastodon.social'], mediaHosts: ['files.mastodon.social'] }]);
    expect(checkPreviewHosts(['https://files.mastodon.social/a.png'], 'mastodon', [], table).verdict.outcome).to.equal('pass');
    expect(checkPreviewHosts(['https://pbs.twimg.com/a.png'], 'mastodon', [], table).verdict.outcome).to.equal('fail');
  });
});
