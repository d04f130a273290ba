// One normal form per web page, so the same page is recognised however it was shared:
// scheme and host lower-cased, default port dropped, tracking parameters and the
// fragment removed, remaining parameters sorted, trailing slash trimmed.
import { parseHttpUrl } from '../schemas/url.js';

const TRACKING = /^(utm_[a-z0-9_]*|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|igshid|yclid|_hsenc|_hsmi|ref_src)$/i;

export function normalizeUrl(input: string): string | null {
  const u = parseHttpUrl(input);
  if (!u) return null;
  // URL already lower-cases scheme and host and drops default ports; do the rest.
  u.hash = '';
  u.username = '';
  u.password = '';
  const kept = [...u.searchParams.entries()].filter(([k]) => !TRACKING.test(k));
  kept.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  u.search = '';
  for (const [k, v] of kept) u.searchParams.append(k, v);
  if (u.hostname.endsWith('.')) u.hostname = u.hostname.slice(0, -1);
  let path = u.pathname.replace(/\/{2,}/g, '/');
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '');
  u.pathname = path || '/';
  let out = u.toString();
  // "https://x.org/" and "https://x.org" are the same page; keep the short form.
  if (u.pathname === '/' && !u.search) out = out.replace(/\/$/, '');
  return out;
}
