// Slugs are derived from the label ("Q3 Launch!" → q3-launch) and unique per tenant
// (the next one is q3-launch-2). Letters of any script survive; accents are folded.
const MAX_SLUG = 80;

export function slugify(label: string): string {
  const base = label
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return base || 'item';
}

/** The first of base, base-2, base-3... that is not in `taken`. */
export function nextFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
