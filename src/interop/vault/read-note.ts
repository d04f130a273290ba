// One Markdown file → the fields of a note, before any link is resolved. Front matter
// becomes fields; unknown keys go back on top of the body as front matter so nothing the
// author wrote is lost; the body keeps its Markdown (task lists, code blocks) as written.
import { posix } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import type { Root, RootContent } from 'mdast';
import type { LinkType, NodeStatus, ProblemKind } from '../types.js';
import { parseMarkdown } from './markdown-tree.js';
import { splitFrontMatter } from './front-matter.js';
import { readFrontMatterFields } from './front-matter-fields.js';
import { scanNote, type LinkRef } from './scan.js';
import { readLogseqProperties } from './logseq-properties.js';
import { readHighlightsSection } from '../highlights/markdown-section.js';
import type { HighlightRecord } from '../highlights/types.js';

export const TITLE_MAX = 500;
/** Marks the links section Rhizome's export appends; import drops it again. */
export const GENERATED_LINKS_MARKER = '<!-- rhizome:links';

export interface ParsedNote {
  path: string;
  title: string;
  /** True when the title came from the front matter or a heading (not the file name). */
  titleFromContent: boolean;
  tags: string[];
  aliases: string[];
  summary?: string;
  status?: NodeStatus;
  created?: string;
  /** When what the note describes happened (ISO 8601 UTC). */
  occurred?: string;
  updated?: string;
  body: string;
  refs: LinkRef[];
  /** Set when the file is a Rhizome export: its own id, links and PARA items. */
  exported?: { id: string; links: Array<{ target: string; type: LinkType }>; para: string[] };
  /** The highlights of a Rhizome export's "Highlights" section (cut from the body). */
  highlights: HighlightRecord[];
  warnings: Array<{ kind: ProblemKind; detail: string }>;
}

function withFrontMatter(extras: Record<string, unknown>, body: string): string {
  if (Object.keys(extras).length === 0) return body;
  return `---\n${stringifyYaml(extras)}---\n\n${body}`;
}

/** Cuts the generated "Links" section (marker comment, heading, list) out of an export's body. */
function dropGeneratedLinks(_text: string, tree: Root, bodyOffset: number, body: string): string {
  const kids = tree.children;
  const i = kids.findIndex((n: RootContent) => n.type === 'html' && n.value.startsWith(GENERATED_LINKS_MARKER));
  if (i < 0) return body;
  let last = i;
  if (kids[last + 1]?.type === 'heading') last++;
  if (kids[last + 1]?.type === 'list') last++;
  const start = kids[i].position!.start.offset! - bodyOffset;
  const end = kids[last].position!.end.offset! - bodyOffset;
  if (start < 0) return body;
  // The export writes the body, exactly two newlines, then the section: undo exactly that.
  let before = body.slice(0, start);
  if (before.endsWith('\n\n')) before = before.slice(0, -2);
  const after = body.slice(end).replace(/^\r?\n/, '');
  return after.trim() ? `${before}\n\n${after}` : before;
}

export function readNote(path: string, text: string): ParsedNote {
  const tree = parseMarkdown(text);
  const split = splitFrontMatter(text, tree);
  const warnings: ParsedNote['warnings'] = [];
  if (split.problem) warnings.push({ kind: 'malformed_front_matter', detail: `${split.problem}; imported as text` });
  const fields = readFrontMatterFields(split.data ?? {});
  for (const detail of fields.warnings) warnings.push({ kind: 'ignored_value', detail });
  const logseq = readLogseqProperties(text, tree);
  if (logseq) {
    fields.title ??= logseq.title;
    for (const t of logseq.tags) if (!fields.tags.some((x) => x.toLowerCase() === t.toLowerCase())) fields.tags.push(t);
    for (const a of logseq.aliases) if (!fields.aliases.includes(a)) fields.aliases.push(a);
  }
  const scan = scanNote(tree);
  const isExport = fields.id !== undefined && fields.links !== undefined;
  let body = split.body;
  if (isExport) body = dropGeneratedLinks(text, tree, split.bodyOffset, body);
  const marked = readHighlightsSection(body);
  body = marked.body;
  const fileTitle = posix.basename(path).replace(/\.(md|markdown)$/i, '');
  const contentTitle = fields.title ?? scan.firstHeading;
  let title = (contentTitle ?? fileTitle).trim() || 'Untitled';
  if (title.length > TITLE_MAX) {
    warnings.push({ kind: 'ignored_value', detail: `title longer than ${TITLE_MAX} characters; cut` });
    title = title.slice(0, TITLE_MAX);
  }
  const tags = [...fields.tags];
  if (!isExport) for (const t of scan.tags) if (!tags.some((x) => x.toLowerCase() === t.toLowerCase())) tags.push(t);
  return {
    path,
    title,
    titleFromContent: contentTitle !== undefined,
    tags,
    aliases: fields.aliases,
    summary: fields.summary,
    status: fields.status,
    created: fields.created,
    occurred: fields.occurred,
    updated: fields.updated,
    body: withFrontMatter(fields.extras, body),
    refs: scan.refs,
    exported: isExport ? { id: fields.id!, links: fields.links!, para: fields.para ?? [] } : undefined,
    highlights: marked.highlights,
    warnings,
  };
}
