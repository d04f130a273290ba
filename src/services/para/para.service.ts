// PARA items: creation with generated slugs, the lifecycle state table, the tree, and the
// entry points of background classification (create, match, rate-limited rescan).
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { ConflictError, GoneError, NotFoundError, RateLimitedError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { ParaAutoRepo } from '../../repos/para-auto.repo.js';
import type { ParaRepo } from '../../repos/para.repo.js';
import type { ParaCategory, ParaCreate, ParaItem, ParaPatch, ParaStatus, ParaTreeItem } from '../../schemas/para.js';
import { PARA_CLASSIFY_JOB, type ClassifyPayload } from './para-classify.service.js';
import { nextFreeSlug, slugify } from './para-slug.js';

export const RESCAN_WINDOW_MS = 5 * 60 * 1000;
const RESCAN_LIMIT = 'para_rescan';

export class ParaService {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: ParaRepo,
    private readonly clock: Clock,
    private readonly queue: JobQueue,
    private readonly auto: ParaAutoRepo,
  ) {}

  async create(tenantId: string, input: ParaCreate): Promise<ParaItem> {
    return await this.tx.withTx(async () => {
      const id = newId('par');
      const slug = await this.uniqueSlug(tenantId, input.label, null);
      await this.repo.insert({ id, tenant_id: tenantId, category: input.category, label: input.label, description: input.description ?? '', slug, created_at: iso(this.clock.now()) });
      // A new folder may fit notes that had nowhere to go, or fit an automatically filed
      // note better than where it went: look at all of them again (never at the user's).
      await this.enqueueReconsider(tenantId);
      return this.get(tenantId, id);
    });
  }

  async get(tenantId: string, id: string): Promise<ParaItem> {
    const item = await this.repo.get(tenantId, id);
    if (!item) throw new NotFoundError('PARA item');
    return item;
  }

  async list(tenantId: string, filter: { category?: ParaCategory; status?: ParaStatus }): Promise<ParaItem[]> {
    return await this.repo.list(tenantId, filter);
  }

  async tree(tenantId: string, includeArchived = false): Promise<Record<ParaCategory, ParaTreeItem[]>> {
    const counts = await this.repo.nodeCounts(tenantId);
    const out: Record<ParaCategory, ParaTreeItem[]> = { projects: [], areas: [], resources: [] };
    for (const item of await this.repo.list(tenantId, {})) {
      if (item.status === 'archived' && !includeArchived) continue;
      out[item.category].push({ ...item, node_count: counts.get(item.id) ?? 0 });
    }
    return out;
  }

  async update(tenantId: string, id: string, patch: ParaPatch): Promise<ParaItem> {
    return await this.tx.withTx(async () => {
      let item = await this.get(tenantId, id);
      if (patch.status !== undefined && patch.status !== item.status) item = await this.moveTo(tenantId, item, patch.status);
      const next = { ...item };
      if (patch.label !== undefined && patch.label !== item.label) {
        next.label = patch.label;
        next.slug = await this.uniqueSlug(tenantId, patch.label, id);
      }
      if (patch.description !== undefined) next.description = patch.description;
      if (next.label !== item.label || next.description !== item.description) await this.save(tenantId, next);
      return await this.get(tenantId, id);
    });
  }

  async complete(tenantId: string, id: string): Promise<ParaItem> {
    return await this.tx.withTx(async () => {
      const item = await this.get(tenantId, id);
      if (item.category !== 'projects') throw new ConflictError('Only projects can be completed');
      if (item.status !== 'active') throw new ConflictError(`Only an active project can be completed; this one is ${item.status}`);
      return await this.moveTo(tenantId, item, 'completed');
    });
  }

  async undoComplete(tenantId: string, id: string): Promise<ParaItem> {
    return await this.tx.withTx(async () => {
      const item = await this.get(tenantId, id);
      if (item.category !== 'projects') throw new ConflictError('Only projects can be completed or reopened');
      if (item.status !== 'completed') throw new ConflictError(`Only a completed project can be reopened; this one is ${item.status}`);
      return await this.moveTo(tenantId, item, 'active');
    });
  }

  async archive(tenantId: string, id: string): Promise<ParaItem> {
    return await this.tx.withTx(async () => {
      const item = await this.get(tenantId, id);
      return item.status === 'archived' ? item : await this.moveTo(tenantId, item, 'archived');
    });
  }

  async unarchive(tenantId: string, id: string): Promise<ParaItem> {
    return await this.tx.withTx(async () => {
      const item = await this.get(tenantId, id);
      return item.status === 'archived' ? await this.moveTo(tenantId, item, 'active') : item;
    });
  }

  /** Deprecated by the contract: archive replaces it. Always 410, whether or not the id exists. */
  remove(): never {
    throw new GoneError('Deleting PARA items is no longer supported; archive the item instead (POST /api/v1/para/{id}/archive)');
  }

  /** Queues matching of the tenant's orphans to this item; answers how many orphans will be looked at. */
  async match(tenantId: string, id: string): Promise<{ queued: number }> {
    return await this.tx.withTx(async () => {
      const item = await this.get(tenantId, id);
      if (item.status !== 'active') throw new ConflictError(`Only an active item takes new nodes; this one is ${item.status}`);
      const queued = (await this.repo.orphanIds(tenantId)).length;
      if (queued > 0) {
        const payload: ClassifyPayload = { item_id: id };
        await this.queue.enqueue(tenantId, PARA_CLASSIFY_JOB, payload, { dedupeKey: `${PARA_CLASSIFY_JOB}:item:${id}` });
      }
      return { queued };
    });
  }

  /**
   * Re-classifies every orphan and every node holding only automatic filings against every
   * active item (a filing that no longer wins is moved or withdrawn); once per 5 minutes per tenant.
   */
  async rescan(tenantId: string): Promise<{ queued: number }> {
    return await this.tx.withTx(async () => {
      const now = this.clock.now();
      const last = await this.repo.rateLimitLastAt(tenantId, RESCAN_LIMIT);
      if (last !== null && now - last < RESCAN_WINDOW_MS) {
        const remaining = Math.min(RESCAN_WINDOW_MS, last + RESCAN_WINDOW_MS - now) / 1000;
        throw new RateLimitedError(`A rescan was started less than 5 minutes ago; try again in ${Math.ceil(remaining)} s`, remaining);
      }
      await this.repo.setRateLimit(tenantId, RESCAN_LIMIT, now);
      return { queued: await this.enqueueReconsider(tenantId) };
    });
  }

  /** Queues a pass over orphans and automatically filed nodes; answers how many it will look at. */
  private async enqueueReconsider(tenantId: string): Promise<number> {
    if (!await this.repo.hasActiveItems(tenantId)) return 0;
    const n = (await this.repo.orphanIds(tenantId)).length + (await this.auto.autoOnlyNodeIds(tenantId)).length;
    if (n > 0) {
      const payload: ClassifyPayload = { reconsider: true };
      await this.queue.enqueue(tenantId, PARA_CLASSIFY_JOB, payload, { dedupeKey: `${PARA_CLASSIFY_JOB}:all:${tenantId}` });
    }
    return n;
  }

  /**
   * Applies one status change with its side effects. Leaving `archived` restores the
   * associations the archive hid; entering it hides the visible ones.
   */
  private async moveTo(tenantId: string, item: ParaItem, status: ParaStatus): Promise<ParaItem> {
    if (status === 'completed' && item.category !== 'projects') throw new ConflictError('Only projects can be completed');
    if (item.status === 'archived') await this.repo.restoreAssociations(tenantId, item.id);
    if (status === 'archived') await this.repo.hideAssociations(tenantId, item.id);
    const next = { ...item, status };
    await this.save(tenantId, next);
    return next;
  }

  private async save(tenantId: string, item: ParaItem): Promise<void> {
    item.updated_at = iso(this.clock.now());
    await this.repo.update(tenantId, item);
  }

  private async uniqueSlug(tenantId: string, label: string, selfId: string | null): Promise<string> {
    const base = slugify(label);
    return nextFreeSlug(base, await this.repo.slugsLike(tenantId, base, selfId));
  }
}
