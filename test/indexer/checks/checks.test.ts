import { expect } from 'chai';
import { checkSourceIdentity } from '../../../indexer/checks/source-identity.ts';
import { checkDate, snowflakeTime } from '../../../indexer/checks/date.ts';
import { checkPreviewOwnership } from '../../../indexer/checks/preview-ownership.ts';
import { makeSubmission } from '../../helpers/factories.ts';


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
    expect(checkSourceIdentity(makeSubmission({ sourceUrl: 'https://unknown.example/work' })).verdict).to.include({ outcome: 'fail' });
    expect(checkSourceIdentity(makeSubmission({ author: '@someone_else' })).verdict.detail).to.match(/@demo-owner/);
  });

  it('accepts an author written as a name whatever the handle', () => {
    expect(checkSourceIdentity(makeSubmission({ author: 'Someone Else' })).verdict.outcome).to.equal('pass');
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
  });
});

describe('publisher checks: preview ownership', () => {
  it('accepts the source host, its media hosts and upload hosts', () => {
    expect(checkPreviewOwnership(['https://raw.githubusercontent.com/a/b/c.png', 'https://github.com/a/b/raw/main/d.png'], 'github', []).outcome).to.equal('pass');
    expect(checkPreviewOwnership(['http://127.0.0.1:4000/a.png'], 'x', ['127.0.0.1:4000']).outcome).to.equal('pass');
    expect(checkPreviewOwnership(['https://uploads.archive.test/a.png'], 'x', ['uploads.archive.test']).outcome).to.equal('pass');
  });

  it('names every preview on a host that is not the source\'s', () => {
    const verdict = checkPreviewOwnership(['https://pbs.twimg.com/a.png', 'https://i.imgur.com/b.png', 'http://127.0.0.1:4001/c.png'], 'x', ['127.0.0.1:4000']);
    expect(verdict.outcome).to.equal('fail');
    expect(verdict.detail).to.include('i.imgur.com').and.include('127.0.0.1:4001').and.not.include('pbs.twimg.com/a.png');
  });

  it('fails a preview that already belongs to another source\'s record', () => {
    const verdict = checkPreviewOwnership(['https://pbs.twimg.com/a.png'], 'x', [], [{ mediaUrl: 'https://pbs.twimg.com/a.png', recordId: 'svg-x-1', source: 'reddit' }]);
    expect(verdict.outcome).to.equal('fail');
    expect(verdict.detail).to.include('svg-x-1');
  });
});
