// The rules of links: a node's outgoing links are replaced as a whole, every link exists as
// a pair (A → B with its type, B → A with the inverse type), and a bad request changes nothing.
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError, ValidationError, type FieldError } from '../../errors.js';
import type { LinkRow, LinksRepo, RelatedRow } from '../../repos/links.repo.js';
import { INVERSE_LINK_TYPE, type LinkType } from '../../schemas/graph.js';

export interface LinkInput {
  target_id: string;
  type: LinkType;
}

export class LinksService {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: LinksRepo,
    private readonly clock: Clock,
  ) {}

  async list(tenantId: string, nodeId: string): Promise<{ links: LinkRow[] }> {
    return await this.tx.withTx(async () => {
      if (!await this.repo.nodeExists(tenantId, nodeId)) throw new NotFoundError('Node');
      return { links: await this.repo.outgoing(tenantId, nodeId) };
    });
  }

  /**
   * Makes `links` the node's complete set of links. Because every link is a pair, the
   * node's rows include the reverses of links made from the other side: leaving one out
   * removes that pair, and naming a target with a new type replaces the pair's types.
   */
  async replace(tenantId: string, nodeId: string, links: LinkInput[]): Promise<{ links: LinkRow[] }> {
    return await this.tx.withTx(async () => {
      if (!await this.repo.nodeExists(tenantId, nodeId)) throw new NotFoundError('Node');
      await this.validate(tenantId, nodeId, links);

      const current = new Map((await this.repo.outgoing(tenantId, nodeId)).map((l) => [l.target_id, l.type]));
      const wanted = new Map(links.map((l) => [l.target_id, l.type]));
      for (const target of current.keys()) {
        if (wanted.has(target)) continue;
        await this.repo.delete(tenantId, nodeId, target);
        await this.repo.delete(tenantId, target, nodeId);
      }
      const now = iso(this.clock.now());
      for (const [target, type] of wanted) {
        if (current.get(target) === type) continue;
        await this.repo.upsert(tenantId, nodeId, target, type, now);
        await this.repo.upsert(tenantId, target, nodeId, INVERSE_LINK_TYPE[type], now);
      }
      return { links: await this.repo.outgoing(tenantId, nodeId) };
    });
  }

  /**
   * Adds one link pair, keeping the node's other links (importers, the capture pipeline).
   * False when either node is gone or it would link a node to itself; an existing link
   * between the two takes the new type.
   */
  async add(tenantId: string, sourceId: string, targetId: string, type: LinkType): Promise<boolean> {
    return await this.tx.withTx(async () => {
      if (sourceId === targetId || (await this.repo.existingIds(tenantId, [sourceId, targetId])).size !== 2) return false;
      const now = iso(this.clock.now());
      await this.repo.upsert(tenantId, sourceId, targetId, type, now);
      await this.repo.upsert(tenantId, targetId, sourceId, INVERSE_LINK_TYPE[type], now);
      return true;
    });
  }

  async related(tenantId: string, nodeId: string, limit: number): Promise<{ nodes: RelatedRow[] }> {
    return await this.tx.withTx(async () => {
      if (!await this.repo.nodeExists(tenantId, nodeId)) throw new NotFoundError('Node');
      return { nodes: await this.repo.related(tenantId, nodeId, limit) };
    });
  }

  /** Self links, repeated targets and targets this tenant cannot see are one 400, listing each. */
  private async validate(tenantId: string, nodeId: string, links: LinkInput[]): Promise<void> {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    links.forEach((l, i) => {
      if (l.target_id === nodeId) errors.push({ path: `links.${i}.target_id`, message: 'a node cannot link to itself' });
      else if (seen.has(l.target_id)) errors.push({ path: `links.${i}.target_id`, message: 'duplicate target_id' });
      seen.add(l.target_id);
    });
    seen.delete(nodeId);
    const existing = await this.repo.existingIds(tenantId, [...seen]);
    links.forEach((l, i) => {
      // Another tenant's node reads exactly like a missing one.
      if (l.target_id !== nodeId && !existing.has(l.target_id)) {
        errors.push({ path: `links.${i}.target_id`, message: `node ${l.target_id} not found` });
      }
    });
    if (errors.length) {
      errors.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
      throw new ValidationError(errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors);
    }
  }
}
