// A whole vault → notes with resolved links, the attachments they embed, and a report.
// Pure: the caller supplies the files (from a folder or a zip) and stores the result.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { LinkType, ParaRef, Problem, VaultFile } from '../types.js';
import { decodeUtf8 } from './decode.js';
import { folderMeaning } from './folders.js';
import { PARA_MANIFEST_PATH, paraKey, readParaManifest } from './para-manifest.js';
import { readNote, type ParsedNote } from './read-note.js';
import { VaultIndex } from './resolver.js';

export interface VaultNote extends Omit<ParsedNote, 'refs' | 'warnings' | 'exported'> {
  /** Idempotency key: the import source and the vault-relative path. */
  key: string;
  /** sha256 of the file's bytes, hex. */
  contentHash: string;
  /** The node id recorded by a Rhizome export, if the file is one. */
  exportedId?: string;
  /** Outgoing typed links, by the target note's vault path. */
  links: Array<{ target: string; type: LinkType }>;
  /** Vault paths of the attachments this note embeds or links to. */
  attachments: string[];
  para: ParaRef[];
}

export interface VaultAttachment {
  path: string;
  bytes: Uint8Array;
  contentHash: string;
  /** Paths of the notes that embed it. */
  referencedBy: string[];
}

export interface VaultReadResult {
  notes: VaultNote[];
  attachments: VaultAttachment[];
  /** Every PARA item the notes (or the export manifest) name, once. */
  paraItems: ParaRef[];
  problems: Problem[];
  /** Files neither notes nor embedded attachments (left alone). */
  skipped: string[];
}

export interface ReadVaultOptions {
  /** Names the import for idempotency keys, e.g. "markdown:my-vault". */
  source: string;
  paraFromFolders?: boolean;
}

const NOTE_EXT = /\.(md|markdown)$/i;

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function importKey(source: string, path: string): string {
  return `${source}:${path}`;
}

/** Hidden files and folders (.obsidian, .trash, .git...) are tool state, not notes. */
function hidden(path: string): boolean {
  return path.split('/').some((s) => s.startsWith('.'));
}

function paraId(p: ParaRef): string {
  return `${p.category}/${(p.slug ?? p.label).toLowerCase()}`;
}

interface Parsed {
  problems: Problem[];
  skipped: string[];
  manifest: Map<string, ParaRef>;
  parsed: Array<{ note: ParsedNote; file: VaultFile }>;
  others: Map<string, VaultFile>;
}

function* parseFiles(files: VaultFile[], state: Parsed): Generator<void> {
  const { problems, skipped, parsed, others } = state;
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const manifestFile = sorted.find((f) => f.path === PARA_MANIFEST_PATH);
  if (manifestFile) {
    const text = decodeUtf8(manifestFile.bytes);
    const read = text === null ? { error: 'not UTF-8' } : readParaManifest(text);
    if ('error' in read) problems.push({ path: PARA_MANIFEST_PATH, kind: 'unreadable', detail: read.error });
    else state.manifest = read.items;
  }
  for (const f of sorted) {
    if (f.path === PARA_MANIFEST_PATH) continue;
    if (hidden(f.path)) { skipped.push(f.path); continue; }
    if (!NOTE_EXT.test(f.path)) { others.set(f.path, f); continue; }
    const text = decodeUtf8(f.bytes);
    if (text === null) { problems.push({ path: f.path, kind: 'not_utf8', detail: 'the file is not UTF-8 text; not imported' }); continue; }
    const note = readNote(f.path, text);
    for (const w of note.warnings) problems.push({ path: f.path, ...w });
    parsed.push({ note, file: f });
    yield;
  }
}

const fresh = (): Parsed => ({ problems: [], skipped: [], manifest: new Map(), parsed: [], others: new Map() });

export function readVault(files: VaultFile[], opts: ReadVaultOptions): VaultReadResult {
  const state = fresh();
  for (const _ of parseFiles(files, state));
  return assemble(state, opts);
}

/** The same, giving the event loop a turn every `every` notes (for servers). */
export async function readVaultInTurns(files: VaultFile[], opts: ReadVaultOptions, every = 100): Promise<VaultReadResult> {
  const state = fresh();
  let n = 0;
  for (const _ of parseFiles(files, state)) if (++n % every === 0) await new Promise<void>((r) => setImmediate(r));
  return assemble(state, opts);
}

function assemble(state: Parsed, opts: ReadVaultOptions): VaultReadResult {
  const { problems, skipped, manifest, parsed, others } = state;
  const index = new VaultIndex(parsed.map(({ note }) => note), [...others.keys()]);
  const byExportId = new Map(parsed.filter((p) => p.note.exported).map((p) => [p.note.exported!.id, p.note.path]));
  const embedded = new Map<string, string[]>();
  const paraItems = new Map<string, ParaRef>();
  for (const item of manifest.values()) paraItems.set(paraId(item), item);

  const notes: VaultNote[] = parsed.map(({ note, file }) => {
    const links: VaultNote['links'] = [];
    const attachments: string[] = [];
    const addLink = (target: string, type: LinkType) => {
      if (target !== note.path && !links.some((l) => l.target === target && l.type === type)) links.push({ target, type });
    };
    for (const ref of note.refs) {
      const r = index.resolve(ref.target, note.path, ref.syntax);
      if (r.kind === 'attachment') {
        if (!attachments.includes(r.path)) attachments.push(r.path);
        embedded.set(r.path, [...(embedded.get(r.path) ?? []), note.path]);
      } else if (note.exported) continue; // an export lists its links in its front matter
      else if (r.kind === 'note') addLink(r.path, 'references');
      else if (r.kind === 'ambiguous') problems.push({ path: note.path, kind: 'ambiguous_link', detail: `${ref.raw} could mean ${r.candidates.join(', ')}; kept as text` });
      else problems.push({ path: note.path, kind: ref.embed && ref.syntax === 'markdown' ? 'unresolved_attachment' : 'unresolved_link', detail: `${ref.raw} matches nothing in the vault; kept as text` });
    }
    let para: ParaRef[] = [];
    let folderTags: string[] = [];
    if (note.exported) {
      for (const l of note.exported.links) {
        const byId = byExportId.get(l.target);
        const name = l.target.replace(/^\[\[|\]\]$/g, '').split('|')[0];
        const r = byId ? ({ kind: 'note', path: byId } as const) : index.resolve(name, note.path, 'wiki');
        if (r.kind === 'note') addLink(r.path, l.type);
        else problems.push({ path: note.path, kind: r.kind === 'ambiguous' ? 'ambiguous_link' : 'unresolved_link', detail: `front-matter link ${l.type} → ${l.target} matches no note in the vault` });
      }
      for (const ref of note.exported.para) {
        const [category, ...rest] = ref.split('/');
        const slug = rest.join('/');
        const known = manifest.get(paraKey(category, slug));
        if (known) para.push(known);
        else if (['projects', 'areas', 'resources'].includes(category) && slug) para.push({ category: category as ParaRef['category'], slug, label: slug, status: 'active' });
        else problems.push({ path: note.path, kind: 'ignored_value', detail: `para entry "${ref}" is not "category/slug"` });
      }
    } else {
      const meaning = folderMeaning(note.path, opts.paraFromFolders ?? false);
      folderTags = meaning.tags;
      if (meaning.para) para = [meaning.para];
    }
    for (const p of para) if (!paraItems.has(paraId(p))) paraItems.set(paraId(p), p);
    const { refs: _r, warnings: _w, exported, ...fields } = note;
    const tags = [...fields.tags];
    for (const t of folderTags) if (!tags.some((x) => x.toLowerCase() === t.toLowerCase())) tags.push(t);
    return {
      ...fields,
      tags,
      key: importKey(opts.source, note.path),
      contentHash: sha256(file.bytes),
      exportedId: exported?.id,
      links,
      attachments,
      para,
    };
  });

  disambiguateTitles(notes, problems);
  const attachments: VaultAttachment[] = [...embedded.entries()].map(([path, by]) => {
    const bytes = others.get(path)!.bytes;
    return { path, bytes, contentHash: sha256(bytes), referencedBy: [...new Set(by)] };
  });
  for (const p of others.keys()) if (!embedded.has(p)) skipped.push(p);
  return { notes, attachments, paraItems: [...paraItems.values()], problems, skipped };
}

/** Two vault notes may not share a title: later ones (by path) get their folder added, and are reported. */
function disambiguateTitles(notes: VaultNote[], problems: Problem[]): void {
  const taken = new Map<string, string>();
  // A Rhizome export may hold equal titles on purpose (nodes are told apart by id): keep them.
  const vaultNotes = notes.filter((n) => n.exportedId === undefined);
  for (const n of vaultNotes) taken.set(n.title.toLowerCase(), taken.get(n.title.toLowerCase()) ?? n.path);
  const used = new Set<string>();
  for (const n of vaultNotes) {
    const k = n.title.toLowerCase();
    if (!used.has(k)) { used.add(k); continue; }
    const dir = posix.dirname(n.path);
    let candidate = `${n.title} (${dir === '.' ? posix.basename(n.path) : dir})`;
    for (let i = 2; used.has(candidate.toLowerCase()); i++) candidate = `${n.title} (${i})`;
    problems.push({ path: n.path, kind: 'duplicate_title', detail: `"${n.title}" is also the title of ${taken.get(k)}; imported as "${candidate}"` });
    n.title = candidate;
    used.add(candidate.toLowerCase());
  }
}
