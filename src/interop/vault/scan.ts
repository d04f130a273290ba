// Walks a note's Markdown tree once and collects what import needs from the body: the
// first level-1 heading, inline #tags, wikilinks, embeds and relative Markdown links.
// Text inside code, links, wikilinks and raw HTML never yields a tag.
import type { Nodes, Root } from 'mdast';
import type { EmbedNode, WikiLinkNode } from './markdown-tree.js';

export interface LinkRef {
  /** The target as written, without heading/block anchors or label. */
  target: string;
  /** `![[...]]` / `![](...)`: the target is shown inside the note. */
  embed: boolean;
  /** `[[...]]` (wiki) or `[](...)` (markdown; target is a URL-decoded relative path). */
  syntax: 'wiki' | 'markdown';
  /** The source text, for reports. */
  raw: string;
}

export interface NoteScan {
  firstHeading?: string;
  tags: string[];
  refs: LinkRef[];
}

// Obsidian's tag rule: '#' after start or whitespace, then letters, digits, '_', '-', '/',
// with at least one character that is not a digit. This runs over plain text nodes only.
const TAG_IN_TEXT = /(?:^|(?<=[\s(]))#([\p{L}\p{N}_\-/]*[\p{L}_\-/][\p{L}\p{N}_\-/]*)/gu;
const SKIP = new Set(['code', 'inlineCode', 'link', 'linkReference', 'definition', 'html', 'yaml', 'wikiLink', 'embed', 'image', 'imageReference']);

function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string' && node.type !== 'html') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

/** `Note#Heading`, `Note^block`, `Note#Heading|label` → `Note`. */
export function stripAnchor(target: string): string {
  const cut = target.search(/[#^]/);
  return (cut >= 0 ? target.slice(0, cut) : target).trim();
}

/** A relative Markdown link target, or null for URLs, anchors and absolute paths. */
function localPath(url: string): string | null {
  const u = url.trim();
  if (!u || u.startsWith('#') || u.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(u) || u.startsWith('//')) return null;
  const noQuery = u.replace(/[?#].*$/, '');
  try {
    return decodeURIComponent(noQuery);
  } catch {
    return noQuery;
  }
}

export function scanNote(tree: Root): NoteScan {
  const out: NoteScan = { tags: [], refs: [] };
  const seenTags = new Set<string>();
  const visit = (node: Nodes): void => {
    switch (node.type) {
      case 'heading':
        if (node.depth === 1 && out.firstHeading === undefined) {
          const t = plainText(node).trim();
          if (t) out.firstHeading = t;
        }
        break;
      case 'text':
        for (const m of node.value.matchAll(TAG_IN_TEXT)) {
          const tag = m[1].replace(/\/+$/, '');
          if (tag && !seenTags.has(tag.toLowerCase())) (seenTags.add(tag.toLowerCase()), out.tags.push(tag));
        }
        return;
      case 'link': {
        const p = localPath(node.url);
        if (p) out.refs.push({ target: p, embed: false, syntax: 'markdown', raw: `[${plainText(node)}](${node.url})` });
        return;
      }
      case 'image': {
        const p = localPath(node.url);
        if (p) out.refs.push({ target: p, embed: true, syntax: 'markdown', raw: `![${node.alt ?? ''}](${node.url})` });
        return;
      }
      default: {
        const t = (node as { type: string }).type;
        if (t === 'wikiLink' || t === 'embed') {
          const v = (node as unknown as WikiLinkNode | EmbedNode).value;
          const embed = t === 'embed';
          // Embeds may carry a size after '|' (`![[img.png|200]]`); the extension keeps it in value.
          const target = stripAnchor(embed ? v.split('|')[0] : v);
          if (target) out.refs.push({ target, embed, syntax: 'wiki', raw: embed ? `![[${v}]]` : `[[${v}]]` });
          return;
        }
      }
    }
    if (SKIP.has(node.type)) return;
    if ('children' in node) for (const c of node.children as Nodes[]) visit(c);
  };
  visit(tree);
  return out;
}
