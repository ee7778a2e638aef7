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
