// How the investigation browser presents itself: as one ordinary desktop visitor per investigation,
// consistent across its signals (user agent with the real Chromium version and no "HeadlessChrome",
// navigator.platform, languages and Accept-Language, time zone, viewport and screen). The profile
// is chosen from the scan id, so a resumed investigation (another worker, a retried activity)
// presents the same visitor. And the optional proxy (SVC_SSI__PROXY_URL) as the crawler uses it.

export interface VisitorProfile {
  userAgent: string;
  /** navigator.platform, matching the user agent's operating system. */
  platform: string;
  locale: string;
  languages: string[];
  acceptLanguage: string;
  timezoneId: string;
  viewport: { width: number; height: number };
  screen: { width: number; height: number };
}

// Linux desktops only: the browser really runs on Linux, so fonts, WebGL and userAgentData agree.
const PLACES = [
  { locale: 'en-US', languages: ['en-US', 'en'], timezoneId: 'America/New_York' },
  { locale: 'en-US', languages: ['en-US', 'en'], timezoneId: 'America/Chicago' },
  { locale: 'en-US', languages: ['en-US', 'en'], timezoneId: 'America/Los_Angeles' },
  { locale: 'en-GB', languages: ['en-GB', 'en'], timezoneId: 'Europe/London' },
] as const;
const SCREENS = [
  { width: 1920, height: 1080 },
  { width: 1536, height: 864 },
  { width: 1440, height: 900 },
  { width: 1366, height: 768 },
] as const;

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** The visitor an investigation's browser context presents; `chromiumVersion` is the browser's own (`131.0.6778.85`). */
export function visitorProfile(scanId: string, chromiumVersion: string): VisitorProfile {
  const h = hash(scanId);
  const place = PLACES[h % PLACES.length]!;
  const screen = SCREENS[Math.floor(h / PLACES.length) % SCREENS.length]!;
  // Chrome's reduced user agent: the major version, then 0.0.0.
  const major = /^(\d+)\./.exec(chromiumVersion)?.[1] ?? '131';
  const acceptLanguage = place.languages.map((l, i) => (i === 0 ? l : `${l};q=${(1 - i / 10).toFixed(1)}`)).join(',');
  return {
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`,
    platform: 'Linux x86_64',
    locale: place.locale,
    languages: [...place.languages],
    acceptLanguage,
    timezoneId: place.timezoneId,
    // The window's inner size: the screen less the browser's own toolbars and the desktop's panel.
    viewport: { width: screen.width, height: screen.height - 130 },
    screen: { ...screen },
  };
}

/** The crawler's proxy, parsed from SVC_SSI__PROXY_URL. */
export interface ProxySettings {
  scheme: 'http' | 'socks5';
  host: string;
  port: number;
  username: string | null;
  password: string | null;
}

export class ProxyUrlError extends Error {
  override name = 'ProxyUrlError';
}

export function parseProxyUrl(value: string): ProxySettings {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ProxyUrlError('the proxy URL is not a valid absolute URL');
  }
  const scheme = url.protocol === 'http:' ? 'http' : url.protocol === 'socks5:' || url.protocol === 'socks5h:' ? 'socks5' : null;
  if (!scheme) throw new ProxyUrlError(`proxy scheme ${url.protocol} is not supported (http:// or socks5://)`);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) throw new ProxyUrlError('the proxy URL has no host');
  const port = url.port ? Number(url.port) : scheme === 'http' ? 8080 : 1080;
  return { scheme, host, port, username: url.username ? decodeURIComponent(url.username) : null, password: url.password ? decodeURIComponent(url.password) : null };
}

/** The URL the egress policy checks for the proxy (like any target: its host, every address, its port), without credentials. */
export function proxyCheckUrl(proxy: ProxySettings): string {
  const host = proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host;
  return `http://${host}:${proxy.port}/`;
}
