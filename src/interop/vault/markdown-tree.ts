// One Markdown parser for the whole interop layer: micromark with GFM (tables, task lists,
// autolinks, strikethrough), YAML front matter and Obsidian-style wikilinks/embeds.
// Everything that reads Markdown walks this tree; nothing matches Markdown with regexes.
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfm } from 'micromark-extension-gfm';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { syntax as wikiLinkSyntax, fromMarkdown as wikiLinkFromMarkdown } from '@flowershow/remark-wiki-link';
import type { Root } from 'mdast';

const extensions = [frontmatter(['yaml']), gfm(), wikiLinkSyntax()];
const mdastExtensions = [frontmatterFromMarkdown(['yaml']), gfmFromMarkdown(), wikiLinkFromMarkdown()];

export function parseMarkdown(text: string): Root {
  return fromMarkdown(text, { extensions, mdastExtensions });
}

/** The wikilink node the extension adds: `[[value|alias]]`. */
export interface WikiLinkNode {
  type: 'wikiLink';
  value: string;
  data?: { alias?: string };
}

/** The embed node the extension adds: `![[value]]`. */
export interface EmbedNode {
  type: 'embed';
  value: string;
}
