// Writes a read vault into a tenant through the other features' services: PARA items
// first, then one node per note (created, updated or skipped by its import key and content
// hash), then the typed links, which are added to what each node already has, never
// removing a link. Each note is its own transaction, so an interrupted run leaves whole
// notes only, and its counts say which.
import type { Clock } from '../../clock.js';
import { iso } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { ImportsRepo } from '../../repos/imports.repo.js';
import type { VaultNote, VaultReadResult } from '../../interop/vault/read-vault.js';
import type { ParaRef } from '../../interop/types.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { ParaService } from '../para/para.service.js';
import type { LinksService } from '../graph/links.service.js';
import type { CapturesIntake } from '../captures/captures-intake.service.js';
import { addProblem, type ImportProgress } from './import-counts.js';
import type { HighlightsService } from '../highlights/highlights.service.js';
import { createHash } from 'node:crypto';

export interface VaultImportDeps {
  tx: UnitOfWork;
  repo: ImportsRepo;
  clock: Clock;
  nodes: Pick<NodesService, 'create' | 'update' | 'get'>;
  para: Pick<ParaService, 'create' | 'list' | 'archive' | 'complete'>;
  links: Pick<LinksService, 'list' | 'replace'>;
  /** Captures an embedded file (the captures intake's upload). */
  upload?: CapturesIntake['upload'];
  /** A note's node was made (rules apply to imports). */
  onNodeImported?: (tenantId: string, nodeId: string) => Promise<void>;
  /** Highlights read back from an export's "Highlights" sections. */
  highlights?: Pick<HighlightsService, 'importRecords'>;
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const BATCH = 100;

function paraKey(p: { category: string; label: string }): string {
  return `${p.category}/${p.label.trim().toLowerCase()}`;
}

/**
 * Finds or creates each PARA item; returns "category/label" (and "category/slug") → id.
 * Items already archived in the tenant take no new notes (the API refuses that), so they
 * are left out: their notes keep whatever associations they have.
 */
async function ensureParaItems(d: VaultImportDeps, tenantId: string, items: ParaRef[], progress: ImportProgress): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const existing of await d.para.list(tenantId, {})) {
    const id = existing.status === 'archived' ? '' : existing.id;
    ids.set(paraKey(existing), id);
    ids.set(`${existing.category}/#${existing.slug}`, id);
  }
  for (const item of items) {
    if (ids.has(paraKey(item))) {
      if (item.slug) ids.set(`${item.category}/#${item.slug}`, ids.get(paraKey(item))!);
      continue;
    }
    const created = await d.para.create(tenantId, { category: item.category, label: item.label.slice(0, 200), description: item.description });
    ids.set(paraKey(item), created.id);
    if (item.slug) ids.set(`${item.category}/#${item.slug}`, created.id);
    progress.counts.para_items_created++;
  }
  return ids;
}

function isArchived(ids: Map<string, string>, p: ParaRef): boolean {
  return (p.slug ? ids.get(`${p.category}/#${p.slug}`) : undefined) === '' || ids.get(paraKey(p)) === '';
}

function itemId(ids: Map<string, string>, p: ParaRef): string | undefined {
  return ((p.slug ? ids.get(`${p.category}/#${p.slug}`) : undefined) ?? ids.get(paraKey(p))) || undefined;
}

export async function importVault(d: VaultImportDeps, tenantId: string, vault: VaultReadResult, progress: ImportProgress, onProgress: () => Promise<void>): Promise<void> {
  for (const p of vault.problems) {
    addProblem(progress, p);
    if (p.kind === 'unresolved_link' || p.kind === 'ambiguous_link') progress.counts.unresolved_links++;
    if (p.kind === 'not_utf8') progress.counts.failed++;
  }
  const paraIds = await ensureParaItems(d, tenantId, vault.paraItems, progress);
  const nodeOf = new Map<string, string>();
  const written = new Set<string>();
  // Notes are written in batches, one transaction each (a commit per note would cost a
  // disk sync per note); inside, each note is a savepoint, so a note that fails leaves the
  // rest of its batch in place. An interrupted run leaves whole notes only.
  for (let start = 0; start < vault.notes.length; start += BATCH) {
    await d.tx.withTx(async () => {
      for (const note of vault.notes.slice(start, start + BATCH)) {
        try {
          if (await d.tx.withTx(async () => await writeNote(d, tenantId, note, paraIds, nodeOf, progress))) written.add(note.path);
        } catch (e) {
          progress.counts.failed++;
          addProblem(progress, { path: note.path, kind: 'unreadable', detail: `not imported: ${e instanceof Error ? e.message : String(e)}` });
        }
      }
    });
    await onProgress();
    await yieldTurn();
  }
  const withLinks = vault.notes.filter((n) => n.links.length && nodeOf.has(n.path));
  for (let start = 0; start < withLinks.length; start += BATCH) {
    await d.tx.withTx(async () => {
      for (const note of withLinks.slice(start, start + BATCH)) {
        try {
          await d.tx.withTx(async () => await addLinks(d, tenantId, nodeOf.get(note.path)!, note.links, nodeOf, progress));
        } catch (e) {
          addProblem(progress, { path: note.path, kind: 'unreadable', detail: `links not set: ${e instanceof Error ? e.message : String(e)}` });
        }
      }
    });
    await yieldTurn();
  }
  await captureAttachments(d, tenantId, vault, nodeOf, written, progress);
  // Items the vault marks archived or completed get that status once their notes are in.
  for (const item of vault.paraItems) {
    const id = itemId(paraIds, item);
    if (!id) continue;
    try {
      if (item.status === 'archived') await d.para.archive(tenantId, id);
      else if (item.status === 'completed' && item.category === 'projects') await d.para.complete(tenantId, id);
    } catch {
      // Already in that state: nothing to do.
    }
  }
}

/** Creates, updates or skips the note's node; true when it was written. */
async function writeNote(d: VaultImportDeps, tenantId: string, note: VaultNote, paraIds: Map<string, string>, nodeOf: Map<string, string>, progress: ImportProgress): Promise<boolean> {
  // By key (source + path) first; else the same file (same path, same content) imported
  // under another source name, i.e. the same vault zipped under a new name. Two files with
  // equal content at different paths (empty notes, templates) stay two notes.
  const known = await d.repo.key(tenantId, note.key)
    ?? (await d.repo.byHash(tenantId, note.contentHash)).find((k) => k.key.endsWith(`:${note.path}`) && ![...nodeOf.values()].includes(k.node_id));
  const para_item_ids = note.para.map((p) => itemId(paraIds, p)).filter((x): x is string => !!x);
  // A note whose item has been archived since keeps its (hidden) association untouched.
  const inArchived = note.para.some((p) => itemId(paraIds, p) === undefined && isArchived(paraIds, p));
  const fields = { title: note.title, content: note.body, summary: note.summary ?? '', tags: note.tags, status: note.status ?? 'raw', para_item_ids, ...(note.occurred ? { occurred_at: note.occurred } : {}) };
  let nodeId: string;
  if (known && known.content_hash === note.contentHash && await exists(d, tenantId, known.node_id)) {
    nodeId = known.node_id;
    progress.counts.skipped++;
  } else if (known && await exists(d, tenantId, known.node_id)) {
    nodeId = (await d.nodes.update(tenantId, known.node_id, inArchived ? { ...fields, para_item_ids: undefined } : fields)).id;
    progress.counts.updated++;
  } else {
    nodeId = (await d.nodes.create(tenantId, fields, { created_at: note.created, updated_at: note.updated })).id;
    await d.onNodeImported?.(tenantId, nodeId);
    progress.counts.created++;
  }
  await d.repo.upsertKey(tenantId, note.key, nodeId, note.contentHash, iso(d.clock.now()));
  nodeOf.set(note.path, nodeId);
  // Keyed as exported (or by note and text): importing the vault again adds none twice.
  if (note.highlights.length && d.highlights) {
    progress.counts.highlights_added += await d.highlights.importRecords(tenantId, nodeId, note.highlights, 'markdown', (h) => `${note.key}#${createHash('sha256').update(h.text).digest('hex')}`);
  }
  return !(known && known.content_hash === note.contentHash);
}

/**
 * Embedded files (images, PDFs...) become upload captures, processed like any upload, with
 * the notes that embed them named in the capture's "why" and linked to its node
 * (`references`) when the capture makes it. Only files embedded by a note that
 * was created or changed in this run are captured, so importing an unchanged vault again
 * captures nothing twice.
 */
async function captureAttachments(d: VaultImportDeps, tenantId: string, vault: VaultReadResult, nodeOf: Map<string, string>, written: Set<string>, progress: ImportProgress): Promise<void> {
  if (!d.upload) return;
  const titles = new Map(vault.notes.map((n) => [n.path, n.title]));
  // A Rhizome export's attachments are the originals its nodes were made from: capturing
  // them again would make a second node from the same file, so they are left beside the notes.
  const fromExport = new Set(vault.notes.filter((n) => n.exportedId !== undefined).map((n) => n.path));
  for (const a of vault.attachments) {
    const by = a.referencedBy.filter((p) => written.has(p) && nodeOf.has(p) && !fromExport.has(p));
    if (by.length === 0) continue;
    try {
      await d.upload(tenantId, {
        filename: a.path.split('/').pop() ?? a.path,
        bytes: a.bytes,
        why: `Embedded in ${by.map((p) => `[[${titles.get(p)}]]`).join(', ')}`.slice(0, 10_000),
        source: 'api',
      }, { linkFrom: by.map((p) => nodeOf.get(p)!) });
      progress.counts.attachments_captured++;
    } catch (e) {
      addProblem(progress, { path: a.path, kind: 'unreadable', detail: `attachment not captured: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
}

/** Adds the note's typed links to what its node already has; never removes one. */
async function addLinks(d: VaultImportDeps, tenantId: string, from: string, links: VaultNote['links'], nodeOf: Map<string, string>, progress: ImportProgress): Promise<void> {
  const merged = new Map((await d.links.list(tenantId, from)).links.map((l) => [l.target_id, l.type]));
  let changed = 0;
  for (const l of links) {
    const to = nodeOf.get(l.target);
    if (!to || to === from || merged.get(to) === l.type) continue;
    merged.set(to, l.type);
    changed++;
  }
  if (changed) await d.links.replace(tenantId, from, [...merged].map(([target_id, type]) => ({ target_id, type })));
  progress.counts.links_set += changed;
}

async function exists(d: VaultImportDeps, tenantId: string, nodeId: string): Promise<boolean> {
  try {
    await d.nodes.get(tenantId, nodeId);
    return true;
  } catch {
    return false;
  }
}
