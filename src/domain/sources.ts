/** The table of known sources: which hosts belong to which source key, and how source URLs are made canonical. */

export interface SourceDefinition {
  key: string;
  label: { zh: string; en: string };
  /** Hosts (without "www.") that belong to this source. */
  hosts: string[];
  /** Hosts that serve this source's own media (preview images). */
  mediaHosts: string[];
}

export const SOURCES: readonly SourceDefinition[] = [
  { key: 'x', label: { zh: 'X（推特）', en: 'X (Twitter)' }, hosts: ['x.com', 'twitter.com', 'mobile.twitter.com', 'mobile.x.com'], mediaHosts: ['pbs.twimg.com', 'video.twimg.com'] },
  { key: 'github', label: { zh: 'GitHub', en: 'GitHub' }, hosts: ['github.com', 'gist.github.com'], mediaHosts: ['raw.githubusercontent.com', 'user-images.githubusercontent.com', 'private-user-images.githubusercontent.com', 'gist.githubusercontent.com'] },
  { key: 'reddit', label: { zh: 'Reddit', en: 'Reddit' }, hosts: ['reddit.com', 'old.reddit.com', 'new.reddit.com', 'np.reddit.com'], mediaHosts: ['i.redd.it', 'preview.redd.it'] },
  { key: 'bilibili', label: { zh: '哔哩哔哩', en: 'Bilibili' }, hosts: ['bilibili.com', 'm.bilibili.com'], mediaHosts: ['i0.hdslb.com', 'i1.hdslb.com', 'i2.hdslb.com'] },
  { key: 'weibo', label: { zh: '微博', en: 'Weibo' }, hosts: ['weibo.com', 'm.weibo.cn', 'weibo.cn'], mediaHosts: ['wx1.sinaimg.cn', 'wx2.sinaimg.cn', 'wx3.sinaimg.cn', 'wx4.sinaimg.cn'] },
  { key: 'youtube', label: { zh: 'YouTube', en: 'YouTube' }, hosts: ['youtube.com', 'm.youtube.com', 'youtu.be'], mediaHosts: ['i.ytimg.com'] },
  { key: 'hn', label: { zh: 'Hacker News', en: 'Hacker News' }, hosts: ['news.ycombinator.com'], mediaHosts: [] },
  { key: 'huggingface', label: { zh: 'Hugging Face', en: 'Hugging Face' }, hosts: ['huggingface.co'], mediaHosts: ['cdn-uploads.huggingface.co'] },
  { key: 'codepen', label: { zh: 'CodePen', en: 'CodePen' }, hosts: ['codepen.io'], mediaHosts: ['assets.codepen.io', 'shots.codepen.io'] },
  { key: 'web', label: { zh: '网页', en: 'Web' }, hosts: [], mediaHosts: [] },
];

export const SOURCE_KEYS: readonly string[] = SOURCES.map((source) => source.key);

const sourceByHost = new Map<string, SourceDefinition>();
for (const source of SOURCES) for (const host of source.hosts) sourceByHost.set(host, source);

/** Host aliases unified in canonical URLs. */
const HOST_ALIASES: Record<string, string> = {
  'twitter.com': 'x.com',
  'mobile.twitter.com': 'x.com',
  'mobile.x.com': 'x.com',
  'old.reddit.com': 'reddit.com',
  'new.reddit.com': 'reddit.com',
  'np.reddit.com': 'reddit.com',
  'm.youtube.com': 'youtube.com',
  'm.bilibili.com': 'bilibili.com',
};

const TRACKING_PARAMETERS = /^(utm_.*|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|igshid|ref_src|ref_url|spm_id_from|vd_source|share_source|share_medium|share_plat|share_session_id|share_tag|share_from|si|feature|s|t)$/i;

/** Parameters that carry identity on some hosts and must be kept there. */
const MEANINGFUL_PARAMETERS: Record<string, string[]> = {
  'youtube.com': ['v', 'list'],
  'news.ycombinator.com': ['id'],
};

function stripWww(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** The source key for a URL's host ("web" for unknown hosts). */
export function sourceKeyForHost(host: string): string {
  return sourceByHost.get(stripWww(host.toLowerCase()))?.key ?? 'web';
}

export function sourceDefinition(key: string): SourceDefinition | undefined {
  return SOURCES.find((source) => source.key === key);
}

/**
 * Canonical form of a source URL: https, lower-case host without "www.", host aliases unified
 * (twitter.com → x.com, youtu.be/ID → youtube.com/watch?v=ID), tracking parameters and fragment
 * dropped, no trailing slash. Returns undefined for text that is not an http(s) URL.
 */
export function canonicalSourceUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  let host = stripWww(url.hostname.toLowerCase());
  host = HOST_ALIASES[host] ?? host;
  let pathname = url.pathname;
  const kept = new URLSearchParams();
  if (host === 'youtu.be') {
    const videoId = pathname.split('/').filter(Boolean)[0];
    host = 'youtube.com';
    pathname = '/watch';
    if (videoId) kept.set('v', videoId);
  }
  const meaningful = MEANINGFUL_PARAMETERS[host];
  const entries = [...url.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, value] of entries) {
    if (meaningful ? meaningful.includes(name) : !TRACKING_PARAMETERS.test(name)) kept.append(name, value);
  }
  if (pathname.length > 1 && pathname.endsWith('/')) pathname = pathname.replace(/\/+$/, '');
  if (host === 'x.com') pathname = pathname.replace(/^\/([^/]+)\/status(?:es)?\/(\d+).*$/, (_m, handle: string, id: string) => `/${handle.toLowerCase()}/status/${id}`);
  const port = url.port ? `:${url.port}` : '';
  const query = kept.toString();
  return `https://${host}${port}${pathname}${query ? `?${query}` : ''}`;
}
