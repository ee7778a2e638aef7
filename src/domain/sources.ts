/**
 * The table of known sources: which hosts belong to which source key, which hosts serve its
 * media, which account its URLs name, and how source URLs are made canonical. The archive keeps
 * the table in its store (`npm run sources`); BUILT_IN_SOURCES is what a new store starts with.
 */
import { bvidOfAid, MAX_AID } from './bilibili-id.ts';

export interface SourceDefinition {
  key: string;
  label: { zh: string; en: string };
  /** Hosts (without "www.") that belong to this source; the first is its canonical host. */
  hosts: string[];
  /** Hosts among `hosts` that are other names of the first one (twitter.com for x.com): unified in canonical URLs. */
  aliases?: string[];
  /** Hosts that serve this source's own media (preview images). */
  mediaHosts: string[];
  /**
   * A regular expression over the canonical URL's path whose first group is the account the URL
   * names (x.com/{handle}/status/…); absent when the source's URLs name none.
   */
  handlePattern?: string;
  /**
   * Query parameters that identify the work on this source and are kept (all others are dropped);
   * absent: the built-in source of the same key gives its own, and a source without one drops
   * only tracking parameters.
   */
  keepParameters?: string[];
  /**
   * A regular expression over the canonical URL's path and query that the address of one work on
   * this source matches (x.com/{handle}/status/{number}): an address that does not (the home page,
   * a search, a profile, a login page) names no work, and the source identity check fails it.
   * Absent: the built-in source of the same key gives its own; empty: any address is a work's.
   */
  workPattern?: string;
  /** How the address of a work on this source looks, for that failure's message. */
  workForm?: string;
}

/** GitHub's first path segments that are the site's own pages, never an owner: github.com/login/… names no work. */
const GITHUB_RESERVED = 'about|account|apps|codespaces|collections|contact|customer-stories|dashboard|enterprise|events|explore|features|issues|join|login|logout|marketplace|new|notifications|orgs|organizations|pricing|pulls|readme|search|security|sessions|settings|signup|site|sponsors|stars|team|topics|trending|users';

/** Weibo's first path segments that are the site's own pages (hot topics, its API, search, settings), never an account. */
const WEIBO_RESERVED = 'a|ajax|at|comment|fav|home|hot|like|login|messages|n|newlogin|p|search|set|setting|signup|tv|u';

/** Hugging Face's first path segments that are the site's own pages, never an owner. */
const HUGGINGFACE_RESERVED = 'api|blog|chat|collections|datasets|docs|enterprise|join|learn|login|models|new|organizations|papers|posts|pricing|search|settings|spaces|tasks';

export const BUILT_IN_SOURCES: readonly SourceDefinition[] = [
  { key: 'x', label: { zh: 'X（推特）', en: 'X (Twitter)' }, hosts: ['x.com', 'twitter.com', 'mobile.twitter.com', 'mobile.x.com'], aliases: ['twitter.com', 'mobile.twitter.com', 'mobile.x.com'], mediaHosts: ['pbs.twimg.com', 'video.twimg.com'], handlePattern: '^/([A-Za-z0-9_]{1,15})/status/\\d+', keepParameters: [], workPattern: '^/(?:i/web|[A-Za-z0-9_]{1,15})/status/\\d+(?:\\?|$)', workForm: 'https://x.com/{account}/status/{number}' },
  { key: 'github', label: { zh: 'GitHub', en: 'GitHub' }, hosts: ['github.com', 'gist.github.com'], mediaHosts: ['raw.githubusercontent.com', 'user-images.githubusercontent.com', 'private-user-images.githubusercontent.com', 'gist.githubusercontent.com'], handlePattern: '^/(?![0-9a-f]{20,}(?:/|$))([A-Za-z0-9-]{1,39})(?:/|$)', workPattern: `^/(?!(?:${GITHUB_RESERVED})(?:/|\\?|$))[A-Za-z0-9-]{1,39}/[A-Za-z0-9._-]+|^/[0-9a-f]{20,}(?:/|\\?|$)`, workForm: 'https://github.com/{owner}/{repository}, or a gist' },
  { key: 'reddit', label: { zh: 'Reddit', en: 'Reddit' }, hosts: ['reddit.com', 'old.reddit.com', 'new.reddit.com', 'np.reddit.com', 'redd.it'], aliases: ['old.reddit.com', 'new.reddit.com', 'np.reddit.com'], mediaHosts: ['i.redd.it', 'preview.redd.it'], keepParameters: [], workPattern: '^/(?:(?:r|u|user)/[A-Za-z0-9_-]+/)?comments/[a-z0-9]+|^/gallery/[a-z0-9]+', workForm: 'https://www.reddit.com/r/{subreddit}/comments/{id}/…' },
  { key: 'bilibili', label: { zh: '哔哩哔哩', en: 'Bilibili' }, hosts: ['bilibili.com', 'm.bilibili.com'], aliases: ['m.bilibili.com'], mediaHosts: ['i0.hdslb.com', 'i1.hdslb.com', 'i2.hdslb.com'], keepParameters: ['p'], workPattern: '^/(?:video/(?:BV[0-9A-Za-z]{10}|av\\d+)|opus/\\d+|read/cv\\d+)(?:/|\\?|$)', workForm: 'https://www.bilibili.com/video/BV…' },
  { key: 'weibo', label: { zh: '微博', en: 'Weibo' }, hosts: ['weibo.com', 'm.weibo.cn', 'weibo.cn'], mediaHosts: ['wx1.sinaimg.cn', 'wx2.sinaimg.cn', 'wx3.sinaimg.cn', 'wx4.sinaimg.cn'], handlePattern: `^/(?!(?:${WEIBO_RESERVED}|status|detail|\\d+)/)([A-Za-z0-9_.-]+)/[A-Za-z0-9]+`, keepParameters: [], workPattern: `^/(?!(?:${WEIBO_RESERVED})/)[A-Za-z0-9_.-]+/[A-Za-z0-9]+$`, workForm: 'https://weibo.com/{account}/{post}' },
  { key: 'youtube', label: { zh: 'YouTube', en: 'YouTube' }, hosts: ['youtube.com', 'm.youtube.com', 'youtu.be', 'music.youtube.com', 'youtube-nocookie.com'], aliases: ['m.youtube.com', 'music.youtube.com', 'youtube-nocookie.com'], mediaHosts: ['i.ytimg.com'], keepParameters: ['v', 'list'], workPattern: '^/watch\\?(?:list=[\\w-]+&)?v=[\\w-]+$|^/(?:shorts|live|embed)/[\\w-]+(?:\\?|$)|^/playlist\\?list=[\\w-]+$', workForm: 'https://www.youtube.com/watch?v={id}, /shorts/{id} or a playlist' },
  { key: 'hn', label: { zh: 'Hacker News', en: 'Hacker News' }, hosts: ['news.ycombinator.com'], mediaHosts: [], keepParameters: ['id'], workPattern: '^/item\\?id=\\d+$', workForm: 'https://news.ycombinator.com/item?id={number}' },
  { key: 'huggingface', label: { zh: 'Hugging Face', en: 'Hugging Face' }, hosts: ['huggingface.co', 'hf.co'], aliases: ['hf.co'], mediaHosts: ['cdn-uploads.huggingface.co'], handlePattern: '^/spaces/([A-Za-z0-9_.-]+)/', keepParameters: [], workPattern: `^/(?:spaces|datasets)/[^/?]+/[^/?]+|^/posts/[^/?]+/\\d+|^/(?!(?:${HUGGINGFACE_RESERVED})(?:/|\\?|$))[^/?]+/[^/?]+`, workForm: 'https://huggingface.co/spaces/{owner}/{name}, or a model' },
  { key: 'codepen', label: { zh: 'CodePen', en: 'CodePen' }, hosts: ['codepen.io'], mediaHosts: ['assets.codepen.io', 'shots.codepen.io'], handlePattern: '^/(?!team/)([A-Za-z0-9_-]+)/(?:pen|full|details|debug|live)/', keepParameters: [], workPattern: '^/(?:team/)?[A-Za-z0-9_-]+/(?:pen|full|details|debug|live)/[A-Za-z0-9]+', workForm: 'https://codepen.io/{account}/pen/{id}' },
  { key: 'web', label: { zh: '网页', en: 'Web' }, hosts: [], mediaHosts: [] },
];

/**
 * Rules of built-in sources as an earlier version of the archive wrote them into a store, and that
 * this version replaced (2026-11-26: a gist without its user, a mobile Weibo post, a numeric Weibo
 * id and a team pen name no account; Weibo's and GitHub's own pages name no work; a team pen and a
 * pen's debug and live views are works). A stored definition still holding one, unchanged by a
 * maintainer, takes the built-in's rule when the store is upgraded (schema.ts source-table v2,
 * mongo-database.ts); a rule a maintainer wrote stays as it is.
 */
export const REPLACED_SOURCE_RULES: readonly { key: string; field: 'handlePattern' | 'workPattern'; was: string }[] = [
  { key: 'github', field: 'handlePattern', was: '^/([A-Za-z0-9-]{1,39})(?:/|$)' },
  {
    key: 'github',
    field: 'workPattern',
    was: '^/(?!(?:about|account|apps|codespaces|collections|contact|customer-stories|dashboard|enterprise|events|explore|features|issues|join|login|logout|marketplace|new|notifications|orgs|organizations|pricing|pulls|readme|search|security|sessions|settings|signup|site|sponsors|stars|team|topics|trending)(?:/|\\?|$))[A-Za-z0-9-]{1,39}/[A-Za-z0-9._-]+|^/[0-9a-f]{20,}(?:/|\\?|$)',
  },
  { key: 'weibo', field: 'handlePattern', was: '^/([A-Za-z0-9_.-]+)/[A-Za-z0-9]+' },
  { key: 'weibo', field: 'workPattern', was: '^/(?!(?:u|n|p)/)[A-Za-z0-9_.-]+/[A-Za-z0-9]+(?:\\?|$)' },
  { key: 'codepen', field: 'handlePattern', was: '^/([A-Za-z0-9_-]+)/(?:pen|full|details)/' },
  { key: 'codepen', field: 'workPattern', was: '^/[A-Za-z0-9_-]+/(?:pen|full|details|debug|live)/[A-Za-z0-9]+' },
];

/**
 * Hosts of built-in sources that tables written by earlier versions lack (Reddit's short links,
 * YouTube Music and YouTube's privacy-enhanced player, Hugging Face's short host), each an
 * alias of its source's first host or, for redd.it, rewritten to the post it names (canonicalUrl).
 * A stored table is given each once when the store is upgraded (schema.ts source-table v3,
 * mongo-database.ts), where the source's key is stored and no stored source holds the host as a
 * host or media host already; a source a maintainer removed or gave the host to stays as it is.
 */
export const ADDED_SOURCE_HOSTS: readonly { key: string; host: string; alias: boolean }[] = [
  { key: 'reddit', host: 'redd.it', alias: false },
  { key: 'youtube', host: 'music.youtube.com', alias: true },
  { key: 'youtube', host: 'youtube-nocookie.com', alias: true },
  { key: 'huggingface', host: 'hf.co', alias: true },
];

/**
 * Short-link hosts whose links name a work only through a request to them (b23.tv, Bilibili's),
 * which the archive does not make: they stay unknown hosts, and a submission at one is told to
 * submit the address it leads to (its platform's label and a work's address there). A maintainer
 * who adds the host as a source's takes it out of this list's reach (the host is known then).
 */
export const UNRESOLVED_SHORT_LINK_HOSTS: Readonly<Record<string, { platform: string; workForm: string }>> = {
  'b23.tv': { platform: 'Bilibili', workForm: 'https://www.bilibili.com/video/BV…' },
};

/** A replaced rule's successor: the built-in source's rule now. */
export function currentSourceRule(key: string, field: 'handlePattern' | 'workPattern'): string {
  const rule = sourceDefinition(key)?.[field];
  if (rule === undefined) throw new Error(`the built-in source ${key} has no ${field}`);
  return rule;
}

/** The built-in table, under the name the catalog generator and the website use. */
export const SOURCES = BUILT_IN_SOURCES;

export const SOURCE_KEYS: readonly string[] = BUILT_IN_SOURCES.map((source) => source.key);

/** The key of records whose host belongs to no source. */
export const UNKNOWN_SOURCE = 'web';

/**
 * Query parameters that track a click or a share on any host and never name a work: dropped from
 * every source URL. Names that are tracking on one platform and may name the work elsewhere (`s`
 * and `t` on x.com, `si` and `feature` on YouTube, `share_id` on Reddit) are not here: a built-in
 * source lists the parameters it keeps (keepParameters) and drops the rest, a source a maintainer
 * added drops SHARE_PARAMETERS too, and an unknown host keeps them
 * (`https://sketches.example.org/view?t=dawn` is another work than `?t=dusk`).
 */
const TRACKING_PARAMETERS = /^(utm_.*|fbclid|gclid|dclid|gbraid|wbraid|msclkid|yclid|twclid|ttclid|mc_cid|mc_eid|igshid|_hsenc|_hsmi|mkt_tok|ref_src|ref_url|spm_id_from|vd_source|share_source|share_medium|share_plat|share_session_id|share_tag|share_from)$/i;

/**
 * The share parameters of the big platforms, which every host dropped until 2026-11-26 and a
 * source a maintainer added without keepParameters still drops, as its rules were written for.
 */
const SHARE_PARAMETERS = /^(si|feature|s|t)$/i;

/** What a source key may look like. */
export const SOURCE_KEY_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/** What a host in the table may look like: lower-case DNS labels, without "www." and without a port. */
export const HOST_PATTERN = /^(?!www\.)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function stripWww(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** An x.com status path: a handle, or a share form without one (/i/web/status/ID, /i/status/ID); then the status id and perhaps a suffix (/photo/1). */
const X_STATUS_PATH = /^\/(?:i\/web|i|([^/]+))\/status(?:es)?\/(\d+)(?:\/.*)?$/;

/** Where the canonical URL of an x.com status without a handle points: the share form x.com itself writes. */
const X_STATUS_WITHOUT_HANDLE = '/i/web/status/';

/**
 * GitHub's share forms of a repository's page: `?tab=readme-ov-file` (which tab of the page is
 * open) and `/tree/{branch}` with nothing after it (the repository at a branch). Both are the
 * repository, so its canonical URL drops them and its duplicates are found.
 */
const GITHUB_VIEW_PARAMETER = 'tab';
const GITHUB_BRANCH_VIEW = /^(\/[^/]+\/[^/]+)\/tree\/[^/]+$/;

/** A gist id: hexadecimal, 20 digits for old gists and 32 for newer ones. */
const GIST_ID = /^[0-9a-f]{20,}$/;

/** A path with its first `count` segments in lower case and the rest as they are. */
function lowerCaseLeadingSegments(pathname: string, count: number): string {
  return pathname
    .split('/')
    .map((segment, index) => (index >= 1 && index <= count ? segment.toLowerCase() : segment))
    .join('/');
}

/**
 * A path of a canonical URL with the parts its host reads without regard to case in lower case,
 * and nothing else changed: on github.com the owner and the repository (a file path after them
 * is case-sensitive; a repository's clone address, repo.git, is its page), on gist.github.com the user and the hexadecimal gist id, on x.com a
 * status's handle (and the status's photo or video suffix dropped; the share forms without a
 * handle become /i/web/status/ID). Other hosts keep their paths: YouTube, Bilibili, Weibo and
 * CodePen ids are case-sensitive, and where a host's rules are not documented nothing is folded.
 */
function foldedPath(host: string, pathname: string): string {
  // github.com/owner/repo.git (the clone address) opens the repository's page.
  if (host === 'github.com') return lowerCaseLeadingSegments(pathname, 2).replace(/^(\/[^/]+\/[^/]+)\.git$/, '$1');
  if (host === 'gist.github.com') return lowerCaseLeadingSegments(pathname, 2);
  if (host !== 'x.com') return pathname;
  const status = X_STATUS_PATH.exec(pathname);
  if (!status?.[2]) return pathname;
  return status[1] ? `/${status[1].toLowerCase()}/status/${status[2]}` : `${X_STATUS_WITHOUT_HANDLE}${status[2]}`;
}

function parsedHttps(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The status id of a parsed x.com status URL, else undefined. */
function statusIdOf(url: URL): string | undefined {
  return url.hostname === 'x.com' ? X_STATUS_PATH.exec(url.pathname)?.[2] : undefined;
}

/** The status id of an x.com status URL in canonical form (with a handle or without), else undefined. */
export function xStatusId(canonicalUrl: string): string | undefined {
  const url = parsedHttps(canonicalUrl);
  return url && statusIdOf(url);
}

/** A Reddit post's address, with or without its community and title slug; a comment's has the comment's id after the slug. */
const REDDIT_POST = /^\/(?:(?:r|u|user)\/[^/]+\/)?comments\/([a-z0-9]+)(?:\/[^/]*(?:\/([a-z0-9]+))?)?$/i;
const REDDIT_GALLERY = /^\/gallery\/([a-z0-9]+)$/i;
/** A Reddit short link, redd.it/{post id}: the post of that id (base 36, as in its address on reddit.com). */
const REDDIT_SHORT_LINK = /^\/([a-z0-9]+)\/*$/i;
/** A YouTube video's other addresses: a short, a live stream, the embedded player. */
const YOUTUBE_VIDEO_PAGE = /^\/(?:shorts|live|embed)\/([\w-]+)$/;
/** The embedded player of a playlist, /embed/videoseries?list={playlist}. */
const YOUTUBE_EMBEDDED_PLAYLIST = '/embed/videoseries';
/** A pen in any of CodePen's views, a team's pen included; its id (a hash id) is CodePen's own across accounts. */
const CODEPEN_PEN = /^\/(?:team\/)?[^/]+\/(?:pen|full|details|debug|live)\/([A-Za-z0-9]+)$/;
/**
 * A Hugging Face repository (a model, a Space, a dataset), at its default view, at a branch, or a
 * page under it (a discussion, a file): the repository's owner and name, and what follows them.
 */
const HUGGINGFACE_REPOSITORY = /^(\/(?:spaces\/|datasets\/)?)([^/]+)\/([^/]+)(\/.*)?$/;
/** A repository's page at a branch with nothing after it: the repository. */
const HUGGINGFACE_BRANCH_VIEW = /^\/tree\/[^/]+$/;
const HUGGINGFACE_POST = /^\/posts\/([^/]+)\/(\d+)$/;
/** A first path segment that is one of Hugging Face's own pages (a model's owner never is). */
const HUGGINGFACE_OWN_PAGE = new RegExp(`^(?:${HUGGINGFACE_RESERVED})$`);
const BILIBILI_VIDEO = /^\/video\/(BV[0-9A-Za-z]{10}|av\d+)$/;
/** A video's old av number as its address writes it (no leading zero). */
const BILIBILI_AID = /^av([1-9]\d*)$/;

/** A Bilibili video's id as its key writes it: its BV id, for an av number too (bilibili-id.ts); an av number no BV id encodes as written. */
function bilibiliVideoId(video: string): string {
  const aid = BILIBILI_AID.exec(video)?.[1];
  if (aid === undefined || BigInt(aid) >= MAX_AID) return video;
  return bvidOfAid(BigInt(aid));
}
/** The addresses of one Weibo post by its number, on any of Weibo's hosts (m.weibo.cn, weibo.cn, weibo.com). */
const WEIBO_POST_BY_NUMBER = /^\/(?:status|detail)\/([A-Za-z0-9]+)$/;

/** A Weibo post by its number, in the one form its key takes; on any Weibo host. */
function weiboPostKey(url: URL): string | undefined {
  const post = WEIBO_POST_BY_NUMBER.exec(url.pathname)?.[1];
  return post && `https://m.weibo.cn/detail/${post}`;
}

/**
 * Where a platform writes one work's address in several forms, the one form its work key takes:
 * the path and query after the host of a canonical URL (or a whole address, where the forms are
 * on several hosts: a Weibo post by its number), or undefined where the URL is of no such form
 * (and keeps its folded path and query). Each names the work by what the platform itself
 * identifies it by, and drops what only chooses a view of it.
 */
const WORK_IDENTITIES: Readonly<Record<string, (url: URL) => string | undefined>> = {
  // x.com/{any handle}/status/ID and the share forms without a handle show the same post.
  'x.com': (url) => {
    const id = statusIdOf(url);
    return id && `${X_STATUS_WITHOUT_HANDLE}${id}`;
  },
  // A gist by its id, with the user or without.
  'gist.github.com': (url) => {
    const [, , id, ...rest] = foldedPath('gist.github.com', url.pathname).split('/');
    return id !== undefined && GIST_ID.test(id) ? `${['', id, ...rest].join('/')}${url.search}` : undefined;
  },
  // A post by its short link, stored as written while redd.it was an unknown host.
  'redd.it': (url) => {
    const post = REDDIT_SHORT_LINK.exec(url.pathname)?.[1];
    return post && `https://reddit.com/comments/${post.toLowerCase()}`;
  },
  // A post by its id: in any community or none, with or without its title slug, or as a gallery.
  'reddit.com': (url) => {
    const post = REDDIT_POST.exec(url.pathname);
    if (post?.[1]) return `/comments/${post[1].toLowerCase()}${post[2] ? `/comment/${post[2].toLowerCase()}` : ''}`;
    const gallery = REDDIT_GALLERY.exec(url.pathname);
    return gallery?.[1] && `/comments/${gallery[1].toLowerCase()}`;
  },
  // A video by its id, whether watched (in a playlist or not), as a short, live or embedded; an
  // embedded playlist (the player's /embed/videoseries) is its playlist, never a video of that id.
  'youtube.com': (url) => {
    if (url.pathname === YOUTUBE_EMBEDDED_PLAYLIST) {
      const list = url.searchParams.get('list');
      return list ? `/playlist?${new URLSearchParams({ list }).toString()}` : undefined;
    }
    const video = url.pathname === '/watch' ? url.searchParams.get('v') : YOUTUBE_VIDEO_PAGE.exec(url.pathname)?.[1];
    return video ? `/watch?v=${encodeURIComponent(video)}` : undefined;
  },
  'codepen.io': (url) => {
    const pen = CODEPEN_PEN.exec(url.pathname)?.[1];
    return pen && `/pen/${pen}`;
  },
  // Repository names are read without regard to case on Hugging Face, the pages under them too.
  'huggingface.co': (url) => {
    const post = HUGGINGFACE_POST.exec(url.pathname);
    if (post?.[1]) return `/posts/${post[1].toLowerCase()}/${post[2]}`;
    const repository = HUGGINGFACE_REPOSITORY.exec(url.pathname);
    if (!repository?.[2] || !repository[3] || (repository[1] === '/' && HUGGINGFACE_OWN_PAGE.test(repository[2]))) return undefined;
    const below = repository[4] === undefined || HUGGINGFACE_BRANCH_VIEW.test(repository[4]) ? '' : repository[4];
    return `${repository[1]}${repository[2].toLowerCase()}/${repository[3].toLowerCase()}${below}${keptSearch(url)}`;
  },
  // A video by its BV id, also at its old av number's address, and its part when not the first (p=1 is the video's own page).
  'bilibili.com': (url) => {
    const video = BILIBILI_VIDEO.exec(url.pathname)?.[1];
    if (!video) return url.pathname;
    const part = url.searchParams.get('p');
    return `/video/${bilibiliVideoId(video)}${part && part !== '1' ? `?p=${encodeURIComponent(part)}` : ''}`;
  },
  'm.weibo.cn': (url) => weiboPostKey(url) ?? url.pathname,
  'weibo.cn': (url) => weiboPostKey(url) ?? url.pathname,
  'weibo.com': (url) => weiboPostKey(url) ?? url.pathname,
};

/**
 * Which version of workKey's rules a stored key was computed with: raised whenever they change,
 * so a store recomputes the keys it holds (schema.ts, mongo-database.ts).
 */
export const WORK_KEY_RULES_VERSION = 3;

/**
 * Each alias host of a built-in source and the host it names (BUILT_IN_SOURCES' aliases): an
 * address on an alias has the key of the same address on its source's first host, so a URL stored
 * before its host was an alias (music.youtube.com, youtube-nocookie.com and hf.co were unknown
 * hosts, kept as written, until work key rules 3) has the key of the address submitted now.
 */
const ALIAS_HOSTS: ReadonlyMap<string, string> = new Map(BUILT_IN_SOURCES.flatMap((source) => (source.aliases ?? []).flatMap((alias) => (source.hosts[0] ? [[alias, source.hosts[0]] as const] : []))));

/**
 * What identifies a work at its source: two canonical source URLs of one work have one key, and
 * the duplicate check and the check for withdrawn works find records by it. The key is the
 * canonical URL with the parts of its path that its host reads without regard to case in lower
 * case (so a URL stored before those parts were folded has the key of its folded form), except
 * where the platform writes one work's address in several forms (WORK_IDENTITIES): an x.com status
 * by its id alone, a gist by its id, a Reddit post by its id, a YouTube video by its id, a pen by
 * its id, a Hugging Face repository in lower case, a Bilibili video by its BV id (an av number
 * converted) and part, a Weibo
 * post by its number in one form; an address on an alias host (ALIAS_HOSTS) or a redd.it short
 * link is keyed as the platform's own address of the work; their query parameters other than the identifying ones are dropped too,
 * so a URL stored with a sharer's parameters before they were dropped has the key of the work.
 * Text that is not an https URL is its own key.
 */
export function workKey(canonicalUrl: string): string {
  const url = parsedHttps(canonicalUrl);
  if (!url) return canonicalUrl;
  const named = url.port ? undefined : ALIAS_HOSTS.get(url.hostname);
  if (named) url.hostname = named;
  const identity = url.port ? undefined : WORK_IDENTITIES[url.hostname]?.(url);
  if (identity !== undefined) return identity.startsWith('https://') ? identity : `https://${url.hostname}${identity}`;
  return `https://${url.host}${foldedPath(url.hostname, url.pathname)}${keptSearch(url)}`;
}

/** The parameters each built-in source's hosts keep, by host (BUILT_IN_SOURCES' keepParameters). */
const BUILT_IN_KEPT_PARAMETERS = new Map(BUILT_IN_SOURCES.flatMap((source) => (source.keepParameters ? source.hosts.map((host) => [host, source.keepParameters] as const) : [])));

/**
 * The query of a canonical URL as its work key holds it: on a built-in source's host only the
 * parameters the source keeps, so a URL stored with others before they were dropped (a Hugging
 * Face discussion's `?status=open`) has the key of its address as submitted now; elsewhere the
 * query as stored.
 */
function keptSearch(url: URL): string {
  const kept = BUILT_IN_KEPT_PARAMETERS.get(url.hostname);
  if (!kept) return url.search;
  const query = new URLSearchParams([...url.searchParams].filter(([name]) => kept.includes(name)));
  query.sort();
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** Problems with a definition before it goes into the table, each naming its field. */
export function sourceDefinitionProblems(definition: SourceDefinition): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (!SOURCE_KEY_PATTERN.test(definition.key)) problems.push({ field: 'key', message: 'must be 1–32 lower-case letters, digits or dashes, starting with a letter' });
  if (definition.key === UNKNOWN_SOURCE) problems.push({ field: 'key', message: `"${UNKNOWN_SOURCE}" is the key of unknown hosts and cannot be defined` });
  for (const language of ['zh', 'en'] as const) if (!definition.label[language]?.trim()) problems.push({ field: `label.${language}`, message: 'must not be blank' });
  if (definition.hosts.length === 0) problems.push({ field: 'hosts', message: 'must name at least one host' });
  for (const [field, hosts] of [['hosts', definition.hosts], ['mediaHosts', definition.mediaHosts], ['aliases', definition.aliases ?? []]] as const) {
    for (const host of hosts) if (!HOST_PATTERN.test(host)) problems.push({ field, message: `${JSON.stringify(host)} is not a lower-case host name without "www." or port` });
  }
  for (const alias of definition.aliases ?? []) {
    if (!definition.hosts.includes(alias) || alias === definition.hosts[0]) problems.push({ field: 'aliases', message: `${alias} must be one of the hosts other than the first` });
  }
  if (definition.handlePattern !== undefined) {
    try {
      if (new RegExp(`${definition.handlePattern}|`).exec('')?.length !== 2) problems.push({ field: 'handlePattern', message: 'must have exactly one capturing group: the handle' });
    } catch (error) {
      problems.push({ field: 'handlePattern', message: `is not a regular expression: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  if (definition.workPattern) {
    try {
      new RegExp(definition.workPattern);
    } catch (error) {
      problems.push({ field: 'workPattern', message: `is not a regular expression: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return problems;
}

/**
 * Hosts a definition would take from other sources: each of its hosts and media hosts must be no
 * other source's host or media host. A host decides which source a URL names, and a media host
 * where a source's previews may come from (preview ownership); shared, a new source could publish
 * another's previews as its own. A source replacing one of the same key is compared with the rest.
 */
export function sourceHostConflicts(definition: SourceDefinition, others: readonly SourceDefinition[]): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  for (const other of others) {
    if (other.key === definition.key) continue;
    for (const [field, hosts] of [['hosts', definition.hosts], ['mediaHosts', definition.mediaHosts]] as const) {
      for (const host of hosts) {
        if (other.hosts.includes(host)) problems.push({ field, message: `${host} belongs to ${other.key} (one of its hosts)` });
        else if (other.mediaHosts.includes(host)) problems.push({ field, message: `${host} belongs to ${other.key} (one of its media hosts)` });
      }
    }
  }
  return problems;
}

/** The source table as the checks read it: hosts to keys, canonical URLs, handles. */
export class SourceTable {
  private readonly byHost = new Map<string, SourceDefinition>();
  private readonly aliasOf = new Map<string, string>();
  private readonly byKey = new Map<string, SourceDefinition>();

  readonly definitions: readonly SourceDefinition[];

  /** A table of these definitions; "web", the key of unknown hosts, is always in it. */
  constructor(definitions: readonly SourceDefinition[]) {
    const web = BUILT_IN_SOURCES.find((source) => source.key === UNKNOWN_SOURCE);
    this.definitions = definitions.some((source) => source.key === UNKNOWN_SOURCE) || !web ? definitions : [...definitions, web];
    for (const source of this.definitions) {
      this.byKey.set(source.key, source);
      for (const host of source.hosts) if (!this.byHost.has(host)) this.byHost.set(host, source);
      for (const alias of source.aliases ?? []) if (source.hosts[0]) this.aliasOf.set(alias, source.hosts[0]);
    }
  }

  /** Every defined key, web last. */
  get keys(): string[] {
    return [...this.byKey.keys()];
  }

  /** The source key for a URL's host ("web" for unknown hosts). */
  keyForHost(host: string): string {
    return this.byHost.get(stripWww(host.toLowerCase()))?.key ?? UNKNOWN_SOURCE;
  }

  definition(key: string): SourceDefinition | undefined {
    return this.byKey.get(key);
  }

  /** The label of a source key in a language; the key itself when unknown. */
  label(key: string, lang: 'zh' | 'en'): string {
    return this.byKey.get(key)?.label[lang] ?? key;
  }

  /**
   * Whether a canonical URL of this source is the address of one work (its work rule, see
   * SourceDefinition.workPattern; a stored definition of a built-in key without one, written before
   * the rules, takes the built-in's). True where the source has no rule.
   */
  namesWork(source: string, canonicalUrl: string): boolean {
    const pattern = this.workRule(source)?.pattern;
    if (!pattern) return true;
    const url = new URL(canonicalUrl);
    return new RegExp(pattern).test(`${url.pathname}${url.search}`);
  }

  /** How the address of a work on this source looks, when the source has a work rule. */
  workForm(source: string): string | undefined {
    return this.workRule(source)?.form;
  }

  /** The parameters a host's source keeps (keptParametersOf); undefined: tracking parameters are dropped, the rest kept. */
  private keptParameters(host: string): readonly string[] | undefined {
    const definition = this.byHost.get(host);
    return definition && this.keptParametersOf(definition.key);
  }

  /**
   * The query parameters a source's URLs keep: its definition's keepParameters, or the built-in
   * source's of the same key where a stored definition has none (as tables written before
   * 2026-11-26 have); undefined where neither lists any.
   */
  keptParametersOf(key: string): readonly string[] | undefined {
    return this.byKey.get(key)?.keepParameters ?? sourceDefinition(key)?.keepParameters;
  }

  private workRule(source: string): { pattern: string; form?: string } | undefined {
    const definition = this.byKey.get(source);
    const ruled = definition?.workPattern === undefined ? sourceDefinition(source) : definition;
    return ruled?.workPattern ? { pattern: ruled.workPattern, ...(ruled.workForm ? { form: ruled.workForm } : {}) } : undefined;
  }

  /** The account a canonical URL of this source names, when its source has a handle pattern. */
  handleIn(source: string, canonicalUrl: string): string | undefined {
    const pattern = this.byKey.get(source)?.handlePattern;
    if (!pattern) return undefined;
    return new RegExp(pattern).exec(new URL(canonicalUrl).pathname)?.[1];
  }

  /**
   * Canonical form of a source URL: https, lower-case host without "www.", host aliases unified
   * (twitter.com → x.com, hf.co → huggingface.co, youtu.be/ID → youtube.com/watch?v=ID,
   * redd.it/ID → reddit.com/comments/ID), tracking parameters and fragment
   * dropped, no trailing slash, and the parts of the path its host reads without regard to case
   * in lower case (see foldedPath). Returns undefined for text that is not an http(s) URL.
   */
  canonicalUrl(raw: string): string | undefined {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      return undefined;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    let host = stripWww(url.hostname.toLowerCase());
    host = this.aliasOf.get(host) ?? host;
    let pathname = url.pathname;
    const kept = new URLSearchParams();
    if (host === 'youtu.be') {
      const videoId = pathname.split('/').filter(Boolean)[0];
      host = 'youtube.com';
      pathname = '/watch';
      if (videoId) kept.set('v', videoId);
    } else if (host === 'redd.it') {
      const post = REDDIT_SHORT_LINK.exec(pathname)?.[1];
      if (post) {
        host = 'reddit.com';
        pathname = `/comments/${post}`;
      }
    }
    const meaningful = this.keptParameters(host);
    const known = this.byHost.has(host);
    for (const [name, value] of url.searchParams) {
      if (host === 'github.com' && name === GITHUB_VIEW_PARAMETER) continue;
      if (meaningful ? meaningful.includes(name) : !TRACKING_PARAMETERS.test(name) && !(known && SHARE_PARAMETERS.test(name))) kept.append(name, value);
    }
    // In name order, youtu.be's own video id among them: one work, one written form.
    kept.sort();
    if (pathname.length > 1 && pathname.endsWith('/')) pathname = pathname.replace(/\/+$/, '');
    pathname = foldedPath(host, pathname);
    if (host === 'github.com') pathname = pathname.replace(GITHUB_BRANCH_VIEW, '$1');
    const port = url.port ? `:${url.port}` : '';
    const query = kept.toString();
    return `https://${host}${port}${pathname}${query ? `?${query}` : ''}`;
  }
}

/** The table a new store starts with. */
export const BUILT_IN_SOURCE_TABLE = new SourceTable(BUILT_IN_SOURCES);

/** The source key for a URL's host in the built-in table ("web" for unknown hosts). */
export function sourceKeyForHost(host: string): string {
  return BUILT_IN_SOURCE_TABLE.keyForHost(host);
}

/** A built-in source's definition. */
export function sourceDefinition(key: string): SourceDefinition | undefined {
  return BUILT_IN_SOURCE_TABLE.definition(key);
}

/** A source URL made canonical with the built-in table (see SourceTable.canonicalUrl). */
export function canonicalSourceUrl(raw: string): string | undefined {
  return BUILT_IN_SOURCE_TABLE.canonicalUrl(raw);
}
