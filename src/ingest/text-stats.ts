// Words and sentences of extracted text, shared by extractors and the summarizer.

/** Markdown reduced to the words a reader sees. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^\s*(?:[-*+>]|\d+\.)\s+/gm, '')
    .replace(/[*_`~|]+/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

export function wordCount(text: string): number {
  return (plainText(text).match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length;
}

/** Sentences of prose, headings and list items kept as their own units. */
export function sentences(markdown: string): string[] {
  const out: string[] = [];
  for (const block of markdown.split(/\n{2,}|\n(?=\s*(?:[-*+]|\d+\.|#{1,6})\s)/)) {
    const text = plainText(block).replace(/\s*\n\s*/g, ' ');
    if (!text) continue;
    for (const p of splitSentences(text)) if (p.length >= 3) out.push(p);
  }
  return out;
}

/** Abbreviations whose full stop does not end a sentence ("e.g. SQLite", "Dr. Smith"). */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|dr|mr|mrs|ms|prof|st|fig|inc|ltd|jr|sr|al)\.$/i;
const URL_LIKE = /\b(?:https?:\/\/|www\.)[^\s<>"]+/gi;

/**
 * One paragraph into sentences. A sentence ends at . ! ? followed by a space and a word that
 * does not start in lower case (or at 。, or at the end): so "Node.js", "v1.2.3", "3.14" and
 * "e.g. SQLite" stay whole, and URLs (masked first) are never cut, whatever they contain.
 */
export function splitSentences(text: string): string[] {
  const urls: string[] = [];
  const masked = text.replace(URL_LIKE, (u) => {
    const [, body, tail] = /^(.*?)([.!?,;:)\]]*)$/.exec(u)!;
    urls.push(body);
    return `\u0000${urls.length - 1}\u0000${tail}`;
  });
  const parts: string[] = [];
  let start = 0;
  for (const m of masked.matchAll(/[.!?]+(?=\s|$)|。+/g)) {
    const end = m.index + m[0].length;
    const piece = masked.slice(start, end);
    const next = masked.slice(end).trimStart();
    if (m[0] === '.' && ABBREVIATION.test(piece)) continue;
    if (next && /^\p{Ll}/u.test(next)) continue;
    parts.push(piece);
    start = end;
  }
  if (start < masked.length) parts.push(masked.slice(start));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL brackets a placeholder no text contains.
  return parts.map((p) => p.replace(/\u0000(\d+)\u0000/g, (_, i: string) => urls[Number(i)]).trim()).filter(Boolean);
}
