// Which redirect URIs a client may register, and whether a presented one is registered.
// Allowed: https, or http on a loopback address (RFC 8252 §7.3 and §8.3); no fragment, no
// credentials. Matching is exact, except that a loopback IP literal may name any port at
// request time (RFC 8252 §7.3: native apps pick a free port when they start).
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);
const LOOPBACK_NAMES = new Set([...LOOPBACK_IPS, 'localhost']);

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
  return `the scheme ${u.protocol} is not allowed: use https, or http on a loopback address`;
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
