// Nodes and PARA items as Markdown documents with YAML front matter (MCP resources,
// node edit in the CLI), and the small text helpers the tools share.
import { stringify } from 'yaml';
import type { Node, ParaItem } from '../client/types.js';

export function frontMatter(meta: Record<string, unknown>, body: string): string {
  return `---\n${stringify(meta).trimEnd()}\n---\n\n${body}`;
}

export function nodeMarkdown(n: Node): string {
  const meta = { id: n.id, title: n.title, summary: n.summary, tags: n.tags, status: n.status, para_item_ids: n.para_item_ids, created: n.created_at, updated: n.updated_at };
  return frontMatter(meta, n.body_markdown);
}

export function paraMarkdown(p: ParaItem, nodes: Pick<Node, 'id' | 'title' | 'summary'>[], total: number): string {
  const meta = { id: p.id, category: p.category, label: p.label, slug: p.slug, status: p.status, nodes: total };
  const list = nodes.map((n) => `- [${n.title}](rhizome://nodes/${n.id})${n.summary ? `: ${oneLine(n.summary, 200)}` : ''}`).join('\n');
  return frontMatter(meta, `# ${p.label}\n\n${p.description ? `${p.description}\n\n` : ''}${list || '(no nodes yet)'}${total > nodes.length ? `\n\n…and ${total - nodes.length} more` : ''}\n`);
}

export function oneLine(text: string, max: number): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** The summary, or where there is none the start of the body (headings and markup stripped). */
export function excerpt(n: { summary?: string; body_markdown?: string }, max = 240): string {
  if (n.summary?.trim()) return oneLine(n.summary, max);
  const body = (n.body_markdown ?? '').replace(/^#+\s*/gm, '').replace(/[*_`>]/g, '');
  return oneLine(body, max);
}
