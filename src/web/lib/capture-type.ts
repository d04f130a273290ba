// The capture content type a URL most likely is (the API asks for one; the pipeline checks).
export const URL_TYPES = ['article', 'tweet', 'video', 'repo', 'pdf', 'audio', 'image'] as const;

export function guessType(url: string): (typeof URL_TYPES)[number] {
  if (/(twitter|x)\.com\/[^/]+\/status/i.test(url)) return 'tweet';
  if (/youtube\.com|youtu\.be|vimeo\.com/i.test(url)) return 'video';
  if (/github\.com\/[^/]+\/[^/]+\/?$|gitlab\.com\//i.test(url)) return 'repo';
  if (/\.pdf($|\?)/i.test(url)) return 'pdf';
  return 'article';
}

/** The text as an http(s) URL, or null (a bare domain such as `example.org/x` counts). */
export function asUrl(text: string): string | null {
  const t = text.trim();
  if (!t || /\s/.test(t)) return null;
  const withScheme = /^https?:\/\//i.test(t) ? t : /^[a-z0-9-]+(\.[a-z0-9-]+)+(\/|$)/i.test(t) ? `https://${t}` : null;
  if (!withScheme) return null;
  try {
    const u = new URL(withScheme);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}
