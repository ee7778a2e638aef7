import { expect } from 'chai';
import { canonicalSourceUrl, SOURCE_KEY_PATTERN, SOURCE_KEYS, sourceKeyForHost } from '../../src/domain/sources.ts';
import searchParams from '../../schemas/search-params.schema.json' with { type: 'json' };
import canonicalRecord from '../../schemas/canonical-record.schema.json' with { type: 'json' };
import sourceList from '../../schemas/source-list.schema.json' with { type: 'json' };

describe('source table and canonical source URLs', () => {
  it('unifies host aliases and drops tracking parameters and fragments', () => {
    expect(canonicalSourceUrl('http://twitter.com/Demo_Mira/status/1790000000000000000?s=20&t=abc#frag')).to.equal('https://x.com/demo_mira/status/1790000000000000000');
    expect(canonicalSourceUrl('https://www.youtube.com/watch?v=abc123&feature=share&utm_source=x')).to.equal('https://youtube.com/watch?v=abc123');
    expect(canonicalSourceUrl('https://youtu.be/abc123?si=tracking')).to.equal('https://youtube.com/watch?v=abc123');
    expect(canonicalSourceUrl('https://old.reddit.com/r/LocalLLaMA/comments/1ab/x/')).to.equal('https://reddit.com/r/LocalLLaMA/comments/1ab/x');
    expect(canonicalSourceUrl('https://github.com/Owner/Repo/?utm_medium=social')).to.equal('https://github.com/Owner/Repo');
    expect(canonicalSourceUrl('https://news.ycombinator.com/item?id=123&utm_source=a')).to.equal('https://news.ycombinator.com/item?id=123');
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

  it('describes a source key in the schemas as the table writes it, leaving which keys exist to the table', () => {
    for (const pattern of [searchParams.properties.source.items.pattern, canonicalRecord.properties.source.pattern, sourceList.properties.items.items.properties.key.pattern]) {
      expect(pattern).to.equal(SOURCE_KEY_PATTERN.source);
    }
    for (const key of SOURCE_KEYS) expect(key).to.match(SOURCE_KEY_PATTERN);
  });
});
