// What counts as a web address in a request: an absolute http(s) URL with a host. Shared
// by the request schemas and by ingest's normal form of a page (ingest/url.ts).
/** Parses an absolute http(s) URL or returns null. */
export function parseHttpUrl(input: string): URL | null {
  let u: URL;
  try {
    u = new URL(input.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!u.hostname) return null;
  return u;
}
