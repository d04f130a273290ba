// A tenant → a Markdown vault. One `.md` per node with YAML front matter (id, title,
// summary, tags, status, para, created, updated, links), the body as stored, and the typed
// links once more as `[[wikilinks]]` in a generated "Links" section so tools that do not
// read front matter still see the graph; highlights as blockquotes in a "Highlights" section
// under the body (interop/highlights/markdown-section.ts). Folders follow PARA: Projects/<item>/,
// Areas/<item>/, Resources/<item>/, and Inbox/ for orphans; attachments lie beside their
// note. `.rhizome/para.yaml` lists every PARA item, so a re-import recreates them exactly.
import { stringify as stringifyYaml } from 'yaml';
import { parseMarkdown } from '../vault/markdown-tree.js';
import { splitFrontMatter } from '../vault/front-matter.js';
import { GENERATED_LINKS_MARKER } from '../vault/read-note.js';
import { writeHighlightsSection } from '../highlights/markdown-section.js';
import { PARA_MANIFEST_PATH, writeParaManifest } from '../vault/para-manifest.js';
import type { ExportFile, ExportNode, ExportParaItem } from './types.js';
import { safeStem, splitName, UniqueNames } from './file-names.js';

const CATEGORY_DIR = { projects: 'Projects', areas: 'Areas', resources: 'Resources' } as const;
export const INBOX_DIR = 'Inbox';
const RESERVED = new Set(['id', 'title', 'summary', 'tags', 'status', 'para', 'created', 'updated', 'links']);
const enc = new TextEncoder();

/** Folder per PARA item, unique within its category. */
function itemFolders(items: ExportParaItem[]): Map<string, string> {
  const names = new Map<string, UniqueNames>();
  const out = new Map<string, string>();
  for (const item of [...items].sort((a, b) => a.id.localeCompare(b.id))) {
    const root = item.status === 'archived' ? `Archive/${CATEGORY_DIR[item.category]}` : CATEGORY_DIR[item.category];
    if (!names.has(root)) names.set(root, new UniqueNames());
    out.set(item.id, `${root}/${names.get(root)!.claim(safeStem(item.label, item.slug))}`);
  }
  return out;
}

/** The body's own leading front matter (kept from an import), when it can join ours. */
function bodyExtras(body: string): { extras: Record<string, unknown>; rest: string } {
  if (!body.startsWith('---')) return { extras: {}, rest: body };
  const split = splitFrontMatter(body, parseMarkdown(body));
  if (!split.data || split.problem || Object.keys(split.data).some((k) => RESERVED.has(k.toLowerCase()))) return { extras: {}, rest: body };
  return { extras: split.data, rest: split.body.replace(/^\s*\n/, '') };
}

export interface MarkdownExport {
  files: ExportFile[];
  /** Node id → vault path of its note. */
  paths: Map<string, string>;
}

export function writeMarkdownVault(nodes: ExportNode[], items: ExportParaItem[]): MarkdownExport {
  const folders = itemFolders(items);
  const itemById = new Map(items.map((i) => [i.id, i]));
  const noteNames = new UniqueNames();
  const fileNames = new UniqueNames();
  const sorted = [...nodes].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  const stems = new Map<string, string>();
  const paths = new Map<string, string>();
  for (const n of sorted) {
    const stem = noteNames.claim(safeStem(n.title));
    const folder = n.para_item_ids.map((id) => folders.get(id)).find(Boolean) ?? INBOX_DIR;
    stems.set(n.id, stem);
    paths.set(n.id, `${folder}/${stem}.md`);
  }
  const files: ExportFile[] = [];
  for (const n of sorted) {
    const path = paths.get(n.id)!;
    const folder = path.slice(0, path.lastIndexOf('/'));
    const attachments = (n.attachments ?? []).map((a) => {
      const { stem, ext } = splitName(a.name);
      const name = fileNames.claim(safeStem(stem, 'attachment'), ext) + ext;
      files.push({ path: `${folder}/${name}`, bytes: a.bytes });
      return name;
    });
    const links = n.links.filter((l) => stems.has(l.target_id));
    const { extras, rest } = bodyExtras(n.body_markdown);
    const front: Record<string, unknown> = {
      id: n.id,
      title: n.title,
      ...(n.summary ? { summary: n.summary } : {}),
      tags: n.tags,
      status: n.status,
      para: n.para_item_ids.map((id) => itemById.get(id)).filter(Boolean).map((i) => `${i!.category}/${i!.slug}`),
      created: n.created_at,
      updated: n.updated_at,
      ...(n.occurred_at ? { occurred: n.occurred_at } : {}),
      links: links.map((l) => ({ target: `[[${stems.get(l.target_id)}]]`, type: l.type })),
      ...extras,
    };
    let text = `---\n${stringifyYaml(front, { lineWidth: 0 })}---\n${rest}`;
    if (n.highlights?.length) text = `${text}\n\n${writeHighlightsSection(n.highlights)}`;
    if (links.length || attachments.length) {
      const lines = [
        ...links.map((l) => `- ${l.type} [[${stems.get(l.target_id)}]]`),
        ...attachments.map((a) => `- ![[${a}]]`),
      ];
      text = `${text}\n\n${GENERATED_LINKS_MARKER}: generated from the front matter; edit \`links\` there -->\n## Links\n\n${lines.join('\n')}\n`;
    }
    files.push({ path, bytes: enc.encode(text) });
  }
  if (items.length) files.push({ path: PARA_MANIFEST_PATH, bytes: enc.encode(writeParaManifest(items)) });
  return { files, paths };
}
