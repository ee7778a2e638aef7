import { expect } from 'chai';
import { BUILT_IN_SOURCES, canonicalSourceUrl, SOURCE_KEY_PATTERN, SOURCE_KEYS, sourceHostConflicts, sourceKeyForHost, workKey } from '../../src/domain/sources.ts';
import searchParams from '../../schemas/search-params.schema.json' with { type: 'json' };
import canonicalRecord from '../../schemas/canonical-record.schema.json' with { type: 'json' };
import sourceList from '../../schemas/source-list.schema.json' with { type: 'json' };

describe('source table and canonical source URLs', () => {
  it('unifies host aliases and drops tracking parameters and fragments', () => {
    expect(canonicalSourceUrl('http://twitter.com/Demo_Mira/status/1790000000000000000?s=20&t=abc#frag')).to.equal('https://x.com/demo_mira/status/1790000000000000000');
    expect(canonicalSourceUrl('https://www.youtube.com/watch?v=abc123&feature=share&utm_source=x')).to.equal('https://youtube.com/watch?v=abc123');
    expect(canonicalSourceUrl('https://youtu.be/abc123?si=tracking')).to.equal('https://youtube.com/watch?v=abc123');
    expect(canonicalSourceUrl('https://old.reddit.com/r/LocalLLaMA/comments/1ab/x/')).to.equal('https://reddit.com/r/LocalLLaMA/comments/1ab/x');
    expect(canonicalSourceUrl('https://github.com/Demo-Owner/Pelican?tab=readme-ov-file'), "GitHub's tab of a repository page").to.equal('https://github.com/demo-owner/pelican');
    expect(canonicalSourceUrl('https://github.com/demo-owner/pelican/tree/main/'), 'a repository at a branch').to.equal('https://github.com/demo-owner/pelican');
    expect(canonicalSourceUrl('https://github.com/demo-owner/pelican/tree/main/svg'), 'a folder of it is kept').to.equal('https://github.com/demo-owner/pelican/tree/main/svg');
    expect(canonicalSourceUrl('https://gist.github.com/demo/0123456789abcdef0123?tab=x'), 'tab is GitHub\'s own page parameter alone').to.equal('https://gist.github.com/demo/0123456789abcdef0123?tab=x');
    expect(canonicalSourceUrl('https://github.com/Owner/Repo/?utm_medium=social')).to.equal('https://github.com/owner/repo');
    expect(canonicalSourceUrl('https://news.ycombinator.com/item?id=123&utm_source=a')).to.equal('https://news.ycombinator.com/item?id=123');
  });

  it('folds the case of what a host reads without regard to case, and only that', () => {
    expect(canonicalSourceUrl('https://github.com/Demo-Lin/pelican-svg')).to.equal('https://github.com/demo-lin/pelican-svg');
    expect(canonicalSourceUrl('https://GitHub.com/Demo-Lin/Pelican-SVG/')).to.equal('https://github.com/demo-lin/pelican-svg');
    expect(canonicalSourceUrl('https://github.com/Demo-Lin')).to.equal('https://github.com/demo-lin');
    expect(canonicalSourceUrl('https://github.com/Demo-Lin/Pelican-SVG.git')).to.equal('https://github.com/demo-lin/pelican-svg');
    expect(canonicalSourceUrl('https://github.com/demo-lin/pelican.github.io')).to.equal('https://github.com/demo-lin/pelican.github.io');
    expect(canonicalSourceUrl('https://github.com/demo-lin/pelican-svg/blob/main/notes.git')).to.equal('https://github.com/demo-lin/pelican-svg/blob/main/notes.git');
    // A file path after the repository is case-sensitive on GitHub.
    expect(canonicalSourceUrl('https://github.com/Demo-Lin/Pelican-SVG/blob/Main/Art/Pelican.svg')).to.equal('https://github.com/demo-lin/pelican-svg/blob/Main/Art/Pelican.svg');
    expect(canonicalSourceUrl('https://gist.github.com/Demo-Lin/AB12CD34EF56AB12CD34EF56AB12CD34')).to.equal('https://gist.github.com/demo-lin/ab12cd34ef56ab12cd34ef56ab12cd34');
    // Ids that are case-sensitive on their hosts stay as they are.
    expect(canonicalSourceUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).to.equal('https://youtube.com/watch?v=dQw4w9WgXcQ');
    expect(canonicalSourceUrl('https://www.bilibili.com/video/BV1xx411c7mD')).to.equal('https://bilibili.com/video/BV1xx411c7mD');
    expect(canonicalSourceUrl('https://weibo.com/1234567890/NaBcDeFgH')).to.equal('https://weibo.com/1234567890/NaBcDeFgH');
    expect(canonicalSourceUrl('https://codepen.io/Demo/pen/AbCdEf')).to.equal('https://codepen.io/Demo/pen/AbCdEf');
  });

  it('writes an x.com status shared without a handle in one form, and a status with one with the handle', () => {
    const id = '1790000000000000000';
    for (const shared of [`https://x.com/i/web/status/${id}`, `https://twitter.com/i/web/status/${id}/`, `https://mobile.twitter.com/i/status/${id}?s=20`, `https://x.com/i/web/status/${id}/photo/1`]) {
      expect(canonicalSourceUrl(shared), shared).to.equal(`https://x.com/i/web/status/${id}`);
    }
    expect(canonicalSourceUrl(`https://x.com/Demo_Mira/statuses/${id}/photo/1`)).to.equal(`https://x.com/demo_mira/status/${id}`);
    expect(canonicalSourceUrl(`https://x.com/ivan/status/${id}`), 'a handle that begins with i').to.equal(`https://x.com/ivan/status/${id}`);
  });

  it('gives every URL of one work one work key, and different works different keys', () => {
    const id = '1790000000000000000';
    const sameStatus = [`https://x.com/demo_mira/status/${id}`, `https://x.com/i/web/status/${id}`, `https://x.com/someone_else/status/${id}`];
    expect(new Set(sameStatus.map(workKey))).to.deep.equal(new Set([`https://x.com/i/web/status/${id}`]));
    expect(workKey(`https://x.com/demo_mira/status/1790000000000000001`)).to.not.equal(workKey(sameStatus[0] ?? ''));
    // A URL stored before owners and repositories were folded has the key of its folded form.
    expect(workKey('https://github.com/Demo-Lin/Pelican-SVG/blob/main/Pelican.svg')).to.equal('https://github.com/demo-lin/pelican-svg/blob/main/Pelican.svg');
    expect(workKey('https://github.com/demo-lin/pelican-svg/blob/main/pelican.svg')).to.equal('https://github.com/demo-lin/pelican-svg/blob/main/pelican.svg');
    const gist = 'ab12cd34ef56ab12cd34ef56ab12cd34';
    expect(workKey(`https://gist.github.com/Demo-Lin/${gist.toUpperCase()}`)).to.equal(`https://gist.github.com/${gist}`);
    expect(workKey(`https://gist.github.com/${gist}`)).to.equal(`https://gist.github.com/${gist}`);
    expect(workKey('https://youtube.com/watch?v=dQw4w9WgXcQ')).to.equal('https://youtube.com/watch?v=dQw4w9WgXcQ');
  });

  it('refuses what is not an http(s) URL', () => {
    expect(canonicalSourceUrl('ftp://example.org/x')).to.equal(undefined);
    expect(canonicalSourceUrl('not a url')).to.equal(undefined);
    expect(canonicalSourceUrl('javascript:alert(1)')).to.equal(undefined);
  });

  it('maps hosts to source keys, unknown hosts to web', () => {
    expect(sourceKeyForHost('www.bilibili.com')).to.equal('bilibili');
    expect(sourceKeyForHost('X.com')).to.equal('x');
    expect(sourceKeyForHost('example.org')).to.equal('web');
  });

  it("refuses a definition another source's host or media host, and lets a source replace itself", () => {
    const github = BUILT_IN_SOURCES.find((source) => source.key === 'github');
    expect(github).to.not.equal(undefined);
    expect(sourceHostConflicts({ ...github!, label: { zh: '代码', en: 'Code' } }, BUILT_IN_SOURCES), 'the same key replaced').to.deep.equal([]);
    const copy = { key: 'mirror', label: { zh: '镜像', en: 'Mirror' }, hosts: ['mirror.example', 'i.redd.it'], mediaHosts: ['raw.githubusercontent.com', 'youtu.be', 'cdn.mirror.example'] };
    expect(sourceHostConflicts(copy, BUILT_IN_SOURCES)).to.have.deep.members([
      { field: 'hosts', message: 'i.redd.it belongs to reddit (one of its media hosts)' },
      { field: 'mediaHosts', message: 'raw.githubusercontent.com belongs to github (one of its media hosts)' },
      { field: 'mediaHosts', message: 'youtu.be belongs to youtube (one of its hosts)' },
    ]);
  });

  it('describes a source key in the schemas as the table writes it, leaving which keys exist to the table', () => {
    for (const pattern of [searchParams.properties.source.items.pattern, canonicalRecord.properties.source.pattern, sourceList.properties.items.items.properties.key.pattern]) {
      expect(pattern).to.equal(SOURCE_KEY_PATTERN.source);
    }
    for (const key of SOURCE_KEYS) expect(key).to.match(SOURCE_KEY_PATTERN);
  });
});
