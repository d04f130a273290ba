// Node rules: validation beyond the schema (PARA ids of the same tenant), the write and
// its follow-up embedding job in one transaction, so a node is acknowledged at once and
// its vector arrives in the background.
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { AppError, NotFoundError, ValidationError } from '../../errors.js';
import { parseOrThrow } from '../../schemas/parse.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { NodeRow, NodesRepo } from '../../repos/nodes.repo.js';
import type { ParaAutoRepo } from '../../repos/para-auto.repo.js';
import type { VectorStore } from '../../vectors/vector-store.js';
import { EMBED_JOB, embedDedupeKey } from './embed-job.js';
import { toNodeDto } from './node-dto.js';
import { NodeCreate, NodePatch, type NodeCreateInput, type NodeDto, type NodePatchInput } from '../../schemas/nodes.js';
import { embeddingText } from '../../search/embedding-text.js';
import { noEvents, type EventSink } from '../../schemas/webhook-events.js';

export class NodesService {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: NodesRepo,
    private readonly vectors: VectorStore,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly paraAuto?: ParaAutoRepo,
    /** Webhooks hear of every write, in its transaction. */
    private readonly events: EventSink = noEvents,
  ) {}

  /** `dates` (imports only): the note's own creation and update times, kept instead of now. */
  async create(tenantId: string, input: NodeCreateInput, dates: { created_at?: string; updated_at?: string } = {}): Promise<NodeDto> {
    const v = parseOrThrow(NodeCreate, input);
    return await this.tx.withTx(async () => {
      await this.checkParaItems(tenantId, v.para_item_ids);
      const now = iso(this.clock.now());
      if (v.created_at && v.created_at > iso(this.clock.now() + FUTURE_SLACK_MS)) {
        throw new ValidationError('created_at must not be in the future', [{ path: 'created_at', message: 'must not be in the future' }]);
      }
      const created = dates.created_at ?? v.created_at ?? dates.updated_at ?? now;
      const updated = dates.updated_at && dates.updated_at >= created ? dates.updated_at : created;
      const row = {
        id: newId('nod'),
        tenant_id: tenantId,
        title: v.title,
        summary: v.summary,
        body_markdown: v.content,
        tags: JSON.stringify(dedupe(v.tags)),
        status: v.status,
        created_at: created,
        updated_at: updated,
        occurred_at: v.occurred_at ?? null,
      };
      const seq = await this.repo.insert(row);
      if (v.para_item_ids.length) await this.repo.setUserParaItems(tenantId, row.id, dedupe(v.para_item_ids), now);
      await this.queue.enqueueInTx(tenantId, EMBED_JOB, { node_id: row.id }, { dedupeKey: embedDedupeKey(row.id) });
      await this.events.emit(tenantId, 'node.created', { id: row.id, title: row.title, tags: JSON.parse(row.tags), status: row.status });
      for (const itemId of dedupe(v.para_item_ids)) await this.events.emit(tenantId, 'para.filed', { node_id: row.id, para_item_id: itemId, source: 'user' });
      if (v.para_item_ids.length) return this.get(tenantId, row.id);
      // A node created a moment ago in this transaction has no PARA rows: its answer is the
      // row as written, without reading it back (three round trips on PostgreSQL).
      const dto = toNodeDto({ ...row, seq, embedded_hash: null }, []);
      if (this.paraAuto) dto.para_assignments = [];
      return dto;
    });
  }

  /**
   * Many nodes at once (POST /nodes/batch, importers, agents): each item is validated on its
   * own and a bad one is reported in its place; the good ones are written in one transaction
   * (each in a savepoint, so an item refused while writing leaves the others), so a batch is
   * acknowledged whole or, when storage fails, not at all.
   */
  async createMany(tenantId: string, inputs: unknown[]): Promise<Array<{ node: NodeDto } | { error: AppError }>> {
    return await this.tx.withTx(async () => {
      const out: Array<{ node: NodeDto } | { error: AppError }> = [];
      for (const input of inputs) {
        try {
          out.push({ node: await this.create(tenantId, input as NodeCreateInput) });
        } catch (e) {
          if (e instanceof AppError && e.status < 500) out.push({ error: e });
          else throw e;
        }
      }
      return out;
    });
  }

  /** Whether the tenant has this node. */
  async exists(tenantId: string, id: string): Promise<boolean> {
    return await this.repo.get(tenantId, id) !== undefined;
  }

  async get(tenantId: string, id: string): Promise<NodeDto> {
    return (await this.read(tenantId, id, false)).node;
  }

  /**
   * The node, and its highlights' rows as read with it (`marks`, for HighlightsService.fromMarks):
   * the node, its assignments in the order para_item_ids lists them, and its highlights in one statement.
   */
  async getWithMarks(tenantId: string, id: string): Promise<{ node: NodeDto; marks: string }> {
    return await this.read(tenantId, id, true);
  }

  private async read(tenantId: string, id: string, withMarks: boolean): Promise<{ node: NodeDto; marks: string }> {
    const found = await this.repo.getWithAssignments(tenantId, id, withMarks);
    if (!found) throw new NotFoundError('Node');
    const { assignments, marks, ...row } = found;
    const dto = toNodeDto(row, assignments.map((a) => a.para_item_id));
    if (this.paraAuto) {
      dto.para_assignments = assignments.map((a) => ({
        para_item_id: a.para_item_id,
        source: a.source,
        score: a.score,
        method: a.source === 'auto' ? a.method : null,
      }));
    }
    return { node: dto, marks };
  }

  async update(tenantId: string, id: string, patch: NodePatchInput): Promise<NodeDto> {
    const p = parseOrThrow(NodePatch, patch);
    return await this.tx.withTx(async () => {
      const row = await this.repo.get(tenantId, id);
      if (!row) throw new NotFoundError('Node');
      const now = iso(this.clock.now());
      const next: NodeRow = {
        ...row,
        title: p.title ?? row.title,
        summary: p.summary ?? row.summary,
        body_markdown: p.content ?? row.body_markdown,
        tags: p.tags ? JSON.stringify(dedupe(p.tags)) : row.tags,
        status: p.status ?? row.status,
        occurred_at: p.occurred_at !== undefined ? p.occurred_at : row.occurred_at ?? null,
        updated_at: now,
      };
      const textChanged = embeddingText(next) !== embeddingText(row);
      const indexChanged = textChanged || next.tags !== row.tags;
      if (textChanged) next.embedded_hash = null;
      await this.repo.update(next, indexChanged);
      if (p.para_item_ids) {
        await this.checkParaItems(tenantId, p.para_item_ids);
        const keep = dedupe(p.para_item_ids);
        const before = new Set(await this.repo.paraItemIds(tenantId, id));
        for (const itemId of keep) if (!before.has(itemId)) await this.events.emit(tenantId, 'para.filed', { node_id: id, para_item_id: itemId, source: 'user' });
        if (this.paraAuto) {
          // Removing an automatic filing is the user's decision: the classifier never makes it again.
          for (const itemId of await this.paraAuto.autoItems(tenantId, id)) if (!keep.includes(itemId)) await this.paraAuto.reject(tenantId, id, itemId, now);
          await this.paraAuto.unreject(tenantId, id, keep);
        }
        await this.repo.setUserParaItems(tenantId, id, keep, now);
      }
      if (textChanged) await this.queue.enqueueInTx(tenantId, EMBED_JOB, { node_id: id }, { dedupeKey: embedDedupeKey(id) });
      await this.events.emit(tenantId, 'node.updated', { id, title: next.title, tags: JSON.parse(next.tags), status: next.status });
      return this.get(tenantId, id);
    });
  }

  async remove(tenantId: string, id: string): Promise<void> {
    await this.tx.withTx(async () => {
      const row = await this.repo.get(tenantId, id);
      if (!row) throw new NotFoundError('Node');
      await this.vectors.removeNode(tenantId, row.seq);
      await this.repo.delete(tenantId, row); // links and PARA associations go with it (ON DELETE CASCADE)
      await this.events.emit(tenantId, 'node.deleted', { id });
    });
  }

  /** Unknown, foreign and archived items are all the same 400: nothing hints at other tenants. */
  private async checkParaItems(tenantId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const found = new Map((await this.repo.paraItemsOf(tenantId, ids)).map((r) => [r.id, r.status]));
    const errors = ids.flatMap((pid, i) =>
      !found.has(pid)
        ? [{ path: `para_item_ids.${i}`, message: `unknown PARA item ${pid}` }]
        : found.get(pid) === 'archived'
          ? [{ path: `para_item_ids.${i}`, message: `PARA item ${pid} is archived; unarchive it first` }]
          : [],
    );
    if (errors.length) throw new ValidationError(errors.map((e) => e.message).join('; '), errors);
  }
}

/** A client's clock may run a little ahead of ours: created_at up to this far ahead is accepted. */
const FUTURE_SLACK_MS = 5 * 60_000;

function dedupe<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
