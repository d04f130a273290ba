// Highlights on a node: create, list, change the note or colour, remove. A highlight is
// anchored in the node's body_markdown by its quote; each read re-anchors it
// (highlights/anchor.ts), so an edit elsewhere in the node leaves it in place and a
// highlight whose words were edited away says it is orphaned.
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError } from '../../errors.js';
import { anchorText, describe, locate } from '../../schemas/highlight-selectors.js';
import { newId } from '../../ids.js';
import type { HighlightRow, HighlightsRepo } from '../../repos/highlights.repo.js';
import type { NodesRepo } from '../../repos/nodes.repo.js';
import type { HighlightRecord } from '../../interop/highlights/types.js';
import {
  HIGHLIGHT_COLORS, NodeHighlightCreate, type HighlightColor, NodeHighlightPatch, type HighlightCreateInput, type HighlightDto, type HighlightPatchInput,
} from '../../schemas/highlights.js';
import { parseOrThrow } from '../../schemas/parse.js';
import { toHighlightDto } from './highlight-dto.js';
import { noEvents, type EventSink } from '../../schemas/webhook-events.js';

/** Where a highlight came from; `key` makes a re-import of the same item write nothing. */
export interface HighlightOrigin {
  source: 'api' | 'capture' | 'kindle' | 'readwise' | 'markdown';
  key?: string;
  created_at?: string;
}

export class HighlightsService {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: HighlightsRepo,
    /** reindexKeywords: a highlight's note is part of the node's indexed words (search/indexed-text.ts). */
    private readonly nodes: Pick<NodesRepo, 'get' | 'reindexKeywords'>,
    private readonly clock: Clock,
    /** Webhooks: highlight.created, in the transaction that adds it. */
    private readonly events: EventSink = noEvents,
  ) {}

  /** `body`: the node's text when the caller has just read it (not read again). */
  async list(tenantId: string, nodeId: string, body?: string): Promise<{ data: HighlightDto[] }> {
    body ??= await this.body(tenantId, nodeId);
    return { data: (await this.repo.byNode(tenantId, nodeId)).map((r) => toHighlightDto(r, body)) };
  }

  async get(tenantId: string, nodeId: string, id: string): Promise<HighlightDto> {
    const body = await this.body(tenantId, nodeId);
    const row = await this.repo.get(tenantId, nodeId, id);
    if (!row) throw new NotFoundError('Highlight');
    return toHighlightDto(row, body);
  }

  async create(tenantId: string, nodeId: string, input: HighlightCreateInput, origin: HighlightOrigin = { source: 'api' }): Promise<HighlightDto> {
    return await this.tx.withTx(async () => {
      const r = await this.add(tenantId, nodeId, input, origin);
      return await this.get(tenantId, nodeId, r.id);
    });
  }

  /**
   * Adds a highlight unless one with the origin's key is there already (imports, a capture's
   * selected text). Runs inside the caller's transaction when there is one.
   */
  async add(tenantId: string, nodeId: string, input: HighlightCreateInput, origin: HighlightOrigin): Promise<{ id: string; created: boolean }> {
    const p = parseOrThrow(NodeHighlightCreate, input);
    const body = await this.body(tenantId, nodeId);
    const id = newId('hl');
    const key = origin.key ?? id;
    if (origin.key && await this.repo.hasKey(tenantId, origin.key)) return { id, created: false };
    const given = p.selectors?.find((s) => s.type === 'TextQuoteSelector');
    const hint = p.selectors?.find((s) => s.type === 'TextPositionSelector');
    const quote = { exact: p.text, prefix: given?.prefix ?? '', suffix: given?.suffix ?? '' };
    const at = given?.prefix || given?.suffix ? locate(body, quote, hint) : anchorText(body, p.text)?.position ?? null;
    // The context the client saw is kept as given (it is what the page shows); otherwise it is the node's.
    const ctx = at && !given?.prefix && !given?.suffix ? describe(body, at.start, at.end).quote : quote;
    const now = iso(this.clock.now());
    const created = await this.repo.insert({
      id, tenant_id: tenantId, node_id: nodeId, text: p.text, note: p.note ?? null, color: p.color,
      prefix: ctx.prefix, suffix: ctx.suffix, start_pos: at?.start ?? null, end_pos: at?.end ?? null,
      source: origin.source, source_key: key, created_at: origin.created_at ?? now, updated_at: now,
    });
    if (created && p.note?.trim()) await this.nodes.reindexKeywords(tenantId, nodeId);
    if (created) await this.events.emit(tenantId, 'highlight.created', { node_id: nodeId, highlight_id: id, text: p.text });
    return { id, created };
  }

  async update(tenantId: string, nodeId: string, id: string, patch: HighlightPatchInput): Promise<HighlightDto> {
    const p = parseOrThrow(NodeHighlightPatch, patch);
    return await this.tx.withTx(async () => {
      const row = await this.row(tenantId, nodeId, id);
      const note = p.note === undefined ? row.note : p.note;
      await this.repo.update({ tenant_id: tenantId, node_id: nodeId, id, note, color: p.color ?? row.color, updated_at: iso(this.clock.now()) });
      if ((note ?? '') !== (row.note ?? '')) await this.nodes.reindexKeywords(tenantId, nodeId);
      return this.get(tenantId, nodeId, id);
    });
  }

  async remove(tenantId: string, nodeId: string, id: string): Promise<void> {
    await this.tx.withTx(async () => {
      const row = await this.row(tenantId, nodeId, id);
      await this.repo.delete(tenantId, nodeId, id);
      if (row.note?.trim()) await this.nodes.reindexKeywords(tenantId, nodeId);
    });
  }

  /**
   * The highlights of several nodes, re-anchored, by node id (nodes with none are absent).
   * For search results and agent context: one query for the whole page of nodes.
   */
  async highlightsFor(tenantId: string, nodeIds: string[]): Promise<Map<string, HighlightDto[]>> {
    const out = new Map<string, HighlightDto[]>();
    const bodies = new Map<string, string>();
    for (const r of await this.repo.byNodes(tenantId, [...new Set(nodeIds)])) {
      if (!bodies.has(r.node_id)) bodies.set(r.node_id, (await this.nodes.get(tenantId, r.node_id))?.body_markdown ?? '');
      const list = out.get(r.node_id) ?? [];
      list.push(toHighlightDto(r, bodies.get(r.node_id)!));
      out.set(r.node_id, list);
    }
    return out;
  }

  /** The same as highlightsFor() from rows read with the nodes (their `marks` column: highlights.repo.ts highlightsColumn). */
  fromMarks(nodes: { id: string; body_markdown: string; marks: string }[]): Map<string, HighlightDto[]> {
    const out = new Map<string, HighlightDto[]>();
    for (const n of nodes) {
      const rows = JSON.parse(n.marks) as HighlightRow[];
      if (rows.length) out.set(n.id, rows.map((r) => toHighlightDto(r, n.body_markdown)));
    }
    return out;
  }

  /** The highlights of these nodes as export records (with the key that makes a re-import a no-op). */
  async exportRecords(tenantId: string, nodeIds: string[]): Promise<Map<string, HighlightRecord[]>> {
    const out = new Map<string, HighlightRecord[]>();
    for (const r of await this.repo.byNodes(tenantId, nodeIds)) {
      const list = out.get(r.node_id) ?? [];
      list.push({ text: r.text, note: r.note, color: r.color, prefix: r.prefix, suffix: r.suffix, created_at: r.created_at, key: r.source_key });
      out.set(r.node_id, list);
    }
    return out;
  }

  /**
   * Adds imported highlights to a node (inside the caller's transaction); those whose key is
   * already there are skipped. Returns how many were added.
   */
  async importRecords(tenantId: string, nodeId: string, records: HighlightRecord[], source: HighlightOrigin['source'], fallbackKey: (h: HighlightRecord) => string): Promise<number> {
    let added = 0;
    for (const h of records) {
      const text = h.text.trim().slice(0, 10_000);
      if (!text) continue;
      const color = (HIGHLIGHT_COLORS as readonly string[]).includes(h.color ?? '') ? (h.color as HighlightColor) : 'yellow';
      const quote = h.prefix || h.suffix ? [{ type: 'TextQuoteSelector' as const, exact: text, prefix: (h.prefix ?? '').slice(-500), suffix: (h.suffix ?? '').slice(0, 500) }] : undefined;
      const created_at = h.created_at && !Number.isNaN(Date.parse(h.created_at)) ? new Date(h.created_at).toISOString() : undefined;
      const r = await this.add(tenantId, nodeId, { text, note: h.note?.slice(0, 10_000) || null, color, selectors: quote }, { source, key: h.key ?? fallbackKey(h), created_at });
      if (r.created) added++;
    }
    return added;
  }

  private async row(tenantId: string, nodeId: string, id: string): Promise<HighlightRow> {
    await this.body(tenantId, nodeId);
    const row = await this.repo.get(tenantId, nodeId, id);
    if (!row) throw new NotFoundError('Highlight');
    return row;
  }

  /** The node's text; 404 for a node that is not this tenant's. */
  private async body(tenantId: string, nodeId: string): Promise<string> {
    const node = await this.nodes.get(tenantId, nodeId);
    if (!node) throw new NotFoundError('Node');
    return node.body_markdown;
  }
}
