// Keyphrase tags, reusing the tenant's vocabulary first: an existing tag that the text
// mentions beats a new phrase, so the graph does not sprout "ml", "machine-learning" and
// "machine learning" side by side. New phrases are the unigrams and bigrams between stopwords that
// recur most, boosted when they occur in the title.
import { STOPWORDS } from '../search/text.js';
import { plainText } from './text-stats.js';

export const TAG_ALGORITHM = 'rhizome-keyphrase-ngram@1';

// Tags also skip common verbs, quantities and page furniture, which recur in captured
// pages without saying what they are about.
const TAG_NOISE = (
  'like made make many much new now one two upon use used using well within without get got gets lets say says said see seen ' +
  'way ways thing things lot lots really still even every something anything nothing year years time times first last ' +
  'image video audio page pages source copyright rights reserved cookie cookies privacy policy subscribe newsletter menu home login sign share click read'
).split(' ');
const STOP: ReadonlySet<string> = new Set([...STOPWORDS, ...TAG_NOISE]);

export function normalizeTag(t: string): string {
  return t.toLowerCase().trim().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 50);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Existing tags the text mentions (as words or hyphen/space variants), most mentioned first. */
function reusedTags(text: string, existing: string[]): Array<{ tag: string; n: number }> {
  const lower = text.toLowerCase();
  const out: Array<{ tag: string; n: number }> = [];
  for (const tag of existing) {
    const words = tag.toLowerCase().split(/[-_\s]+/).filter(Boolean);
    if (!words.length || words.join('').length < 2) continue;
    const re = new RegExp(`(^|[^\\p{L}\\p{N}])${words.map(escapeRe).join('[-_\\s]+')}s?(?=$|[^\\p{L}\\p{N}])`, 'gu');
    const n = (lower.match(re) ?? []).length;
    if (n > 0) out.push({ tag, n });
  }
  return out.sort((a, b) => b.n - a.n || a.tag.localeCompare(b.tag));
}

function candidatePhrases(text: string): string[][] {
  const phrases: string[][] = [];
  for (const chunk of text.toLowerCase().split(/[.,;:!?()[\]{}"“”'’\n\r\t/\\|<>=+*&^%$#@~`]+|\s[-–—]\s/)) {
    let cur: string[] = [];
    for (const w of chunk.split(/\s+/)) {
      const word = w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      if (!word || STOP.has(word) || word.length < 3 || /^\d+$/.test(word)) {
        if (cur.length) phrases.push(cur);
        cur = [];
      } else cur.push(word);
    }
    if (cur.length) phrases.push(cur);
  }
  return phrases.filter((p) => p.length <= 3);
}

export function keyphraseTags(input: { title?: string; text: string; existing?: string[]; limit?: number }): { tags: string[]; reused: string[] } {
  const limit = input.limit ?? 5;
  const text = plainText(`${input.title ?? ''}\n${input.text}`).slice(0, 200_000);
  const reused = reusedTags(text, input.existing ?? []).slice(0, limit).map((r) => r.tag);
  // Unigrams and bigrams inside stopword-free runs, counted; a bigram's words are
  // credited to it (half weight) so "soil health" beats "soil" when both recur.
  const counts = new Map<string, number>();
  for (const p of candidatePhrases(text)) {
    for (let i = 0; i < p.length; i++) {
      counts.set(p[i], (counts.get(p[i]) ?? 0) + 1);
      if (i + 1 < p.length) counts.set(`${p[i]} ${p[i + 1]}`, (counts.get(`${p[i]} ${p[i + 1]}`) ?? 0) + 1);
    }
  }
  const titleWords = new Set((input.title ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const ranked = [...counts.entries()]
    .map(([k, n]) => {
      const words = k.split(' ');
      const inTitle = words.some((w) => titleWords.has(w));
      return { k, n, inTitle, s: n * (words.length === 2 ? 1.6 : 1) * (inTitle ? 2 : 1) };
    })
    // A phrase must recur (or be in the title) to be a topic rather than a passing word.
    .filter((c) => c.n >= 2 || (c.inTitle && !c.k.includes(' ')))
    .sort((a, b) => b.s - a.s || a.k.localeCompare(b.k));
  const tags = [...reused];
  const seen = new Set(tags.map(normalizeTag));
  for (const c of ranked) {
    if (tags.length >= limit) break;
    const t = normalizeTag(c.k);
    if (!t || seen.has(t) || [...seen].some((x) => x.includes(t) || t.includes(x))) continue;
    seen.add(t);
    tags.push(t);
  }
  return { tags, reused };
}
