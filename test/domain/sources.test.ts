import { expect } from 'chai';
import fc from 'fast-check';
import { aidOfBvid, bvidOfAid, BVID_PATTERN, MAX_AID } from '../../src/domain/bilibili-id.ts';
import { BUILT_IN_SOURCES, canonicalSourceUrl, SOURCE_KEY_PATTERN, SOURCE_KEYS, sourceHostConflicts, sourceKeyForHost, SourceTable, workKey } from '../../src/domain/sources.ts';
import searchParams from '../../schemas/search-params.schema.json' with { type: 'json' };
import canonicalRecord from '../../schemas/canonical-record.schema.json' with { type: 'json' };
import sourceList from '../../schemas/source-list.schema.json' with { type: 'json' };
import { fuzzParameters, runsFor } from '../fuzz/support.ts';

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

  it("writes an address on a platform's short or embedded host as the platform's own", () => {
    expect(canonicalSourceUrl('https://redd.it/1eg3dm0')).to.equal('https://reddit.com/comments/1eg3dm0');
    expect(canonicalSourceUrl('http://redd.it/1eg3dm0/?utm_source=share')).to.equal('https://reddit.com/comments/1eg3dm0');
    expect(canonicalSourceUrl('https://redd.it/r/svg'), 'no post id: left for the work rule to fail').to.equal('https://redd.it/r/svg');
    expect(canonicalSourceUrl('https://music.youtube.com/watch?v=demoPelAnim&si=abc&feature=share')).to.equal('https://youtube.com/watch?v=demoPelAnim');
    expect(canonicalSourceUrl('https://www.youtube-nocookie.com/embed/demoPelAnim?autoplay=1')).to.equal('https://youtube.com/embed/demoPelAnim');
    expect(canonicalSourceUrl('https://hf.co/DeepSeek-AI/DeepSeek-R1?not-for-all-audiences=true')).to.equal('https://huggingface.co/DeepSeek-AI/DeepSeek-R1');
    expect(canonicalSourceUrl('https://hf.co/datasets/Demo/Pelicans')).to.equal('https://huggingface.co/datasets/Demo/Pelicans');
    expect(canonicalSourceUrl('https://b23.tv/AbCdEf1?share_source=copy'), 'b23.tv needs a request to resolve: an unknown host').to.equal('https://b23.tv/AbCdEf1');
    expect(['redd.it', 'music.youtube.com', 'www.youtube-nocookie.com', 'hf.co', 'b23.tv'].map(sourceKeyForHost)).to.deep.equal(['reddit', 'youtube', 'youtube', 'huggingface', 'web']);
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

  it("gives one key to every address a platform writes for one work, and keeps apart works that look alike", () => {
    const sameWork = (addresses: string[]) => {
      const keys = new Set(addresses.map((address) => workKey(canonicalSourceUrl(address) ?? address)));
      expect([...keys], addresses.join(' | ')).to.have.length(1);
      return [...keys][0];
    };
    expect(sameWork([
      'https://www.reddit.com/r/LocalLLaMA/comments/1eg3dm0/demo_tandem_pelicans_405b/',
      'https://www.reddit.com/r/LocalLLaMA/comments/1eg3dm0/',
      'https://www.reddit.com/r/localllama/comments/1eg3dm0/demo_tandem_pelicans_405b/?share_id=AbC123&rdt=55',
      'https://reddit.com/comments/1eg3dm0',
      'https://old.reddit.com/user/someone/comments/1eg3dm0/x/',
      'https://www.reddit.com/gallery/1eg3dm0',
    ])).to.equal('https://reddit.com/comments/1eg3dm0');
    expect(sameWork(['https://www.reddit.com/r/a/comments/1eg3dm0/slug/lk2x9qp/', 'https://reddit.com/r/A/comments/1eg3dm0/other_slug/lk2x9qp'])).to.equal('https://reddit.com/comments/1eg3dm0/comment/lk2x9qp');
    expect(sameWork([
      'https://www.youtube.com/watch?v=demoPelAnim',
      'https://youtu.be/demoPelAnim?si=x&t=30',
      'https://www.youtube.com/shorts/demoPelAnim',
      'https://www.youtube.com/watch?v=demoPelAnim&list=PLdemo123',
      'https://youtu.be/demoPelAnim?list=PLdemo123',
      'https://www.youtube.com/embed/demoPelAnim',
      'https://www.youtube.com/live/demoPelAnim?feature=share',
    ])).to.equal('https://youtube.com/watch?v=demoPelAnim');
    expect(sameWork([
      'https://codepen.io/archive-demo/pen/dmBtfly',
      'https://codepen.io/archive-demo/full/dmBtfly',
      'https://codepen.io/Archive-Demo/pen/dmBtfly?editors=1010',
      'https://codepen.io/archive-demo/details/dmBtfly',
      'https://codepen.io/archive-demo/debug/dmBtfly',
      'https://codepen.io/team/demo-team/pen/dmBtfly',
    ])).to.equal('https://codepen.io/pen/dmBtfly');
    expect(sameWork([
      'https://huggingface.co/spaces/Archive-Demo/Rubiks-Cube-R1',
      'https://huggingface.co/spaces/archive-demo/rubiks-cube-r1/tree/main',
      'https://huggingface.co/spaces/archive-demo/rubiks-cube-r1?not-for-all-audiences=true',
    ])).to.equal('https://huggingface.co/spaces/archive-demo/rubiks-cube-r1');
    expect(sameWork(['https://huggingface.co/DeepSeek-AI/DeepSeek-R1', 'https://huggingface.co/deepseek-ai/deepseek-r1/tree/main'])).to.equal('https://huggingface.co/deepseek-ai/deepseek-r1');
    expect(sameWork([
      'https://www.bilibili.com/video/BV1demoInk7q',
      'https://www.bilibili.com/video/BV1demoInk7q?p=1',
      'https://m.bilibili.com/video/BV1demoInk7q?buvid=XY123&mid=8f3kQ&plat_id=116&share_source=WEIXIN&timestamp=1700000000&unique_k=Xyz12',
    ])).to.equal('https://bilibili.com/video/BV1demoInk7q');
    expect(sameWork(['https://m.weibo.cn/status/4976543210123456', 'https://m.weibo.cn/detail/4976543210123456?sourceType=weixin', 'https://weibo.cn/detail/4976543210123456', 'https://weibo.com/detail/4976543210123456'])).to.equal('https://m.weibo.cn/detail/4976543210123456');
    // A page under a repository: the repository's part in lower case, the rest as written.
    expect(sameWork(['https://huggingface.co/spaces/Org-X/Cool-Space/discussions/5', 'https://huggingface.co/spaces/org-x/cool-space/discussions/5?status=open'])).to.equal('https://huggingface.co/spaces/org-x/cool-space/discussions/5');
    expect(sameWork(['https://huggingface.co/Org-Y/Model-Z/blob/main/README.md', 'https://huggingface.co/org-y/model-z/blob/main/README.md'])).to.equal('https://huggingface.co/org-y/model-z/blob/main/README.md');

    // Works that look alike stay apart.
    const keys = [
      'https://www.bilibili.com/video/BV1demoInk7q?p=2',
      'https://www.bilibili.com/video/BV1demoInk7Q',
      'https://www.youtube.com/playlist?list=PLdemo123',
      'https://www.youtube.com/watch?v=demoPelAniM',
      'https://codepen.io/archive-demo/pen/dmBtflY',
      'https://www.reddit.com/r/a/comments/1eg3dm1/',
      'https://sketches.example.org/view?t=dawn',
      'https://sketches.example.org/view?t=dusk',
      'https://sketches.example.org/view',
    ].map((address) => workKey(canonicalSourceUrl(address) ?? address));
    expect(new Set(keys).size).to.equal(keys.length);
  });

  it("keys an address on a platform's short or embedded host as the platform's own, also as stored while the host was unknown", () => {
    const keyOf = (address: string) => workKey(canonicalSourceUrl(address) ?? address);
    // Submitted now (made canonical first) and stored before (as an unknown host's canonical URL).
    for (const address of ['https://redd.it/1eg3dm0', 'https://redd.it/1EG3DM0/', 'https://redd.it/1eg3dm0?utm_source=x&ref=share']) {
      expect(keyOf(address), address).to.equal('https://reddit.com/comments/1eg3dm0');
      expect(workKey(address), `${address} stored`).to.equal('https://reddit.com/comments/1eg3dm0');
    }
    for (const address of ['https://music.youtube.com/watch?v=demoPelAnim', 'https://music.youtube.com/watch?si=abc&v=demoPelAnim', 'https://youtube-nocookie.com/embed/demoPelAnim', 'https://www.youtube-nocookie.com/embed/demoPelAnim?autoplay=1&start=30']) {
      expect(keyOf(address), address).to.equal('https://youtube.com/watch?v=demoPelAnim');
      expect(workKey(address.replace('www.', '')), `${address} stored`).to.equal('https://youtube.com/watch?v=demoPelAnim');
    }
    expect(workKey('https://music.youtube.com/playlist?list=PLdemo123')).to.equal('https://youtube.com/playlist?list=PLdemo123');
    for (const [address, key] of [
      ['https://hf.co/DeepSeek-AI/DeepSeek-R1', 'https://huggingface.co/deepseek-ai/deepseek-r1'],
      ['https://hf.co/datasets/Demo/Pelicans/tree/main', 'https://huggingface.co/datasets/demo/pelicans'],
      ['https://hf.co/spaces/Archive-Demo/Rubiks-Cube-R1?not-for-all-audiences=true', 'https://huggingface.co/spaces/archive-demo/rubiks-cube-r1'],
    ] as const) {
      expect(keyOf(address), address).to.equal(key);
      expect(workKey(address), `${address} stored`).to.equal(key);
    }
    expect(workKey('https://twitter.com/Demo_Mira/status/1790000000000000000'), 'an alias an earlier table lacked').to.equal('https://x.com/i/web/status/1790000000000000000');
    // An embedded playlist is its playlist; two of them are two works, and neither is a video called "videoseries".
    expect(keyOf('https://www.youtube-nocookie.com/embed/videoseries?list=PLdemo123')).to.equal('https://youtube.com/playlist?list=PLdemo123');
    expect(keyOf('https://www.youtube.com/embed/videoseries?list=PLdemo456')).to.equal('https://youtube.com/playlist?list=PLdemo456');
    expect(keyOf('https://www.youtube.com/embed/videoseries')).to.not.equal(keyOf('https://www.youtube.com/watch?v=videoseries'));
    // What names no post, and b23.tv, which a request alone resolves, keep their own keys.
    expect(workKey('https://redd.it/r/svg')).to.equal('https://redd.it/r/svg');
    expect(keyOf('https://b23.tv/AbCdEf1')).to.equal('https://b23.tv/AbCdEf1');
  });

  it("converts a Bilibili video's av number to its BV id and back, as the platform's pairs have them", () => {
    // Pairs the platform's pages and documentation show (av1054803170 is BV1mH4y1u7UA there; BV1mK4y1C7Bz is av882584971).
    const pairs: [bigint, string][] = [
      [170001n, 'BV17x411w7KC'],
      [2n, 'BV1xx411c7mD'],
      [1054803170n, 'BV1mH4y1u7UA'],
      [882584971n, 'BV1mK4y1C7Bz'],
      [455017605n, 'BV1Q541167Qg'],
    ];
    for (const [aid, bvid] of pairs) {
      expect(bvidOfAid(aid), `av${aid}`).to.equal(bvid);
      expect(aidOfBvid(bvid), bvid).to.equal(aid);
    }
    expect(() => bvidOfAid(0n)).to.throw(RangeError);
    expect(() => bvidOfAid(MAX_AID)).to.throw(RangeError);
    for (const text of ['BV1demoInk7q', 'BV17x411w7K', 'bv17x411w7KC', 'AV17x411w7KC']) expect(aidOfBvid(text), text).to.equal(undefined);
  });

  it('decodes the BV id it writes for any aid from 1 to 2^51 - 1 to that aid', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_AID - 1n }), (aid) => {
        const bvid = bvidOfAid(aid);
        expect(bvid).to.match(BVID_PATTERN);
        expect(aidOfBvid(bvid)).to.equal(aid);
      }),
      fuzzParameters(runsFor(2000)),
    );
  });

  it("keys a Bilibili video's av address as its BV id, its part as for a BV address", () => {
    const keyOf = (address: string) => workKey(canonicalSourceUrl(address) ?? address);
    for (const address of ['https://www.bilibili.com/video/av170001', 'https://www.bilibili.com/video/av170001/', 'https://m.bilibili.com/video/av170001?p=1&share_source=copy', 'https://www.bilibili.com/video/BV17x411w7KC']) {
      expect(keyOf(address), address).to.equal('https://bilibili.com/video/BV17x411w7KC');
    }
    expect(keyOf('https://www.bilibili.com/video/av170001?p=3')).to.equal(keyOf('https://www.bilibili.com/video/BV17x411w7KC?p=3')).and.to.equal('https://bilibili.com/video/BV17x411w7KC?p=3');
    expect(keyOf('https://www.bilibili.com/video/av2')).to.equal('https://bilibili.com/video/BV1xx411c7mD');
    expect(keyOf('https://www.bilibili.com/video/av1054803170')).to.equal('https://bilibili.com/video/BV1mH4y1u7UA');
    // The stored URL is kept as submitted (as a short's is); the key alone is the BV id's.
    expect(canonicalSourceUrl('https://www.bilibili.com/video/av170001/?spm_id_from=333')).to.equal('https://bilibili.com/video/av170001');
    // Another video, another part, and numbers no BV id encodes keep apart.
    const apart = ['https://www.bilibili.com/video/av170002', 'https://www.bilibili.com/video/av170001?p=2', 'https://www.bilibili.com/video/BV17x411w7KC', 'https://www.bilibili.com/video/av2251799813685248', 'https://www.bilibili.com/video/av0170001'].map(keyOf);
    expect(new Set(apart).size).to.equal(apart.length);
    expect(apart[3]).to.equal('https://bilibili.com/video/av2251799813685248');
  });

  it("keeps a source's identifying parameters in name order and drops the sharer's, and leaves an unknown host's parameters but for tracking", () => {
    expect(canonicalSourceUrl('https://youtu.be/demoPelAnim?list=PLdemo123&si=abc'), 'the video id among the parameters in name order').to.equal('https://youtube.com/watch?list=PLdemo123&v=demoPelAnim');
    expect(canonicalSourceUrl('https://m.bilibili.com/video/BV1demoInk7q?buvid=XY123&is_story_h5=false&mid=8f3kQ&p=2&plat_id=116&timestamp=1700000000&unique_k=Xyz12')).to.equal('https://bilibili.com/video/BV1demoInk7q?p=2');
    expect(canonicalSourceUrl('https://www.reddit.com/r/a/comments/185dm0q/x/?share_id=AbC123&rdt=1&ref=share')).to.equal('https://reddit.com/r/a/comments/185dm0q/x');
    expect(canonicalSourceUrl('https://x.com/demo/status/1790000000000000000?lang=en&ref_src=twsrc')).to.equal('https://x.com/demo/status/1790000000000000000');
    expect(canonicalSourceUrl('https://sketches.example.org/view?t=dawn&utm_source=x&fbclid=1&s=2'), "an unknown host's t and s may name the work").to.equal('https://sketches.example.org/view?s=2&t=dawn');
  });

  it('keys a URL stored with parameters its source now drops as the address submitted now, and lets an added source drop the share parameters it always dropped', () => {
    // Stored before every parameter was dropped on Hugging Face, at a path the key does not rewrite.
    const stored = 'https://huggingface.co/spaces/Org/App/discussions/3?status=open';
    expect(workKey(stored)).to.equal(workKey(canonicalSourceUrl(stored) ?? '')).and.to.equal('https://huggingface.co/spaces/org/app/discussions/3');
    expect(workKey('https://news.ycombinator.com/item?id=42&utm_source=x'), "a source's identifying parameter stays").to.equal('https://news.ycombinator.com/item?id=42');
    const withMastodon = new SourceTable([...BUILT_IN_SOURCES, { key: 'mastodon', label: { zh: '长毛象', en: 'Mastodon' }, hosts: ['mastodon.social'], mediaHosts: [] }]);
    expect(withMastodon.canonicalUrl('https://mastodon.social/@lin/112233445566?s=20&t=x&utm_source=y')).to.equal('https://mastodon.social/@lin/112233445566');
    expect(withMastodon.canonicalUrl('https://sketches.example.org/view?t=dawn'), 'an unknown host keeps them').to.equal('https://sketches.example.org/view?t=dawn');
    expect(withMastodon.keptParametersOf('bilibili'), "a built-in source's own, for a table stored without it").to.deep.equal(['p']);
    expect(withMastodon.keptParametersOf('mastodon')).to.equal(undefined);
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
