// Logseq pages carry their properties as `key:: value` lines in the page's first block
// instead of YAML front matter (`title:: My page`, `tags:: [[a]], b`, `alias:: x`). When a
// page starts with such a block, Rhizome reads the same fields from it; the block itself
// stays in the body, where Logseq expects it.
import type { Paragraph, Root } from 'mdast';

const PROPERTY_LINE = /^([A-Za-z][\w-]*)::[ \t]*(.*)$/;

function values(raw: string): string[] {
  return raw.split(',').map((v) => v.trim().replace(/^\[\[(.*)\]\]$/, '$1').replace(/^#/, '').trim()).filter(Boolean);
}

export interface LogseqProperties {
  title?: string;
  tags: string[];
  aliases: string[];
}

/** The page's leading property block, read from the source text of its first paragraph. */
export function readLogseqProperties(text: string, tree: Root): LogseqProperties | null {
  const first = tree.children.find((n) => n.type !== 'yaml');
  if (first?.type !== 'paragraph') return null;
  const p = first as Paragraph;
  const start = p.position?.start.offset;
  const end = p.position?.end.offset;
  if (start === undefined || end === undefined) return null;
  const lines = text.slice(start, end).split(/\r?\n/).map((l) => l.trim());
  const matches = lines.map((l) => PROPERTY_LINE.exec(l));
  if (matches.length === 0 || matches.some((m) => m === null)) return null;
  const out: LogseqProperties = { tags: [], aliases: [] };
  for (const m of matches as RegExpExecArray[]) {
    const key = m[1].toLowerCase();
    if (key === 'title' && m[2].trim()) out.title = m[2].trim();
    else if (key === 'tags' || key === 'tag') out.tags.push(...values(m[2]));
    else if (key === 'alias' || key === 'aliases') out.aliases.push(...values(m[2]));
  }
  return out;
}
