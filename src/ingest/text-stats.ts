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
    const parts = text.match(/[^.!?。]+(?:[.!?。]+(?=\s|$)|$)/g) ?? [text];
    for (const p of parts) {
      const s = p.trim();
      if (s.length >= 3) out.push(s);
    }
  }
  return out;
}
