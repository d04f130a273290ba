// Which redirect URIs a client may register, and whether a presented one is registered.
// Allowed: https; http on a loopback address (RFC 8252 §7.3, §8.3); and a native app's
// private-use scheme (RFC 8252 §7.1, e.g. Cursor's cursor://anysphere.cursor-mcp/...), but
// never a scheme the browser handles itself (javascript:, data:, file:...). PKCE binds the
// code to the app that started the flow, so another app claiming the same scheme gets
// nothing usable. No fragment, no credentials. Matching is exact, except that a loopback IP
// literal may name any port at request time (RFC 8252 §7.3: apps pick a free port).
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);
const LOOPBACK_NAMES = new Set([...LOOPBACK_IPS, 'localhost']);
/** Schemes a browser acts on itself: a redirect there would run or read something. */
const BROWSER_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'blob:', 'about:', 'filesystem:', 'view-source:', 'vbscript:', 'ftp:', 'ws:', 'wss:', 'mailto:', 'tel:', 'sms:', 'intent:']);

/** What a person recognises: https://host, cursor://anysphere.cursor-mcp. */
export function redirectTarget(uri: string): string {
  const u = new URL(uri);
  return `${u.protocol}//${u.host}`;
}

/** The CSP source that lets a form's redirect reach this URI (an origin, or a scheme). */
export function redirectCspSource(uri: string): string {
  const u = new URL(uri);
  return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : u.protocol;
}

/** Why this URI may not be registered, or null when it may. */
export function redirectUriProblem(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `${raw.slice(0, 100)} is not an absolute URL`;
  }
  if (u.hash || raw.includes('#')) return 'a redirect URI must not contain a fragment';
  if (u.username || u.password) return 'a redirect URI must not contain credentials';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && LOOPBACK_NAMES.has(u.hostname)) return null;
  if (u.protocol === 'http:') return 'plain http is only allowed for loopback addresses (127.0.0.1, [::1], localhost)';
  if (BROWSER_SCHEMES.has(u.protocol) || !/^[a-z][a-z0-9+.-]*:$/.test(u.protocol)) return `the scheme ${u.protocol} is not allowed: use https, http on a loopback address, or an app's own scheme`;
  return null;
}

/** The registered URI the presented one stands for, or undefined. */
export function matchRedirectUri(registered: readonly string[], presented: string): string | undefined {
  if (registered.includes(presented)) return presented;
  let p: URL;
  try {
    p = new URL(presented);
  } catch {
    return undefined;
  }
  if (p.protocol !== 'http:' || !LOOPBACK_IPS.has(p.hostname) || p.hash || p.username || p.password) return undefined;
  return registered.find((r) => {
    const u = new URL(r);
    return u.protocol === 'http:' && u.hostname === p.hostname && u.pathname === p.pathname && u.search === p.search;
  }) && presented;
}
