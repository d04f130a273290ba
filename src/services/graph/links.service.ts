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

  list(tenantId: string, nodeId: string): { links: LinkRow[] } {
    return this.tx.withTx(() => {
      if (!this.repo.nodeExists(tenantId, nodeId)) throw new NotFoundError('Node');
      return { links: this.repo.outgoing(tenantId, nodeId) };
    });
  }

  /**
   * Makes `links` the node's complete set of links. Because every link is a pair, the
   * node's rows include the reverses of links made from the other side: leaving one out
   * removes that pair, and naming a target with a new type replaces the pair's types.
   */
  replace(tenantId: string, nodeId: string, links: LinkInput[]): { links: LinkRow[] } {
    return this.tx.withTx(() => {
      if (!this.repo.nodeExists(tenantId, nodeId)) throw new NotFoundError('Node');
      this.validate(tenantId, nodeId, links);

      const current = new Map(this.repo.outgoing(tenantId, nodeId).map((l) => [l.target_id, l.type]));
      const wanted = new Map(links.map((l) => [l.target_id, l.type]));
      for (const target of current.keys()) {
        if (wanted.has(target)) continue;
        this.repo.delete(tenantId, nodeId, target);
        this.repo.delete(tenantId, target, nodeId);
      }
      const now = iso(this.clock.now());
      for (const [target, type] of wanted) {
        if (current.get(target) === type) continue;
        this.repo.upsert(tenantId, nodeId, target, type, now);
        this.repo.upsert(tenantId, target, nodeId, INVERSE_LINK_TYPE[type], now);
      }
      return { links: this.repo.outgoing(tenantId, nodeId) };
    });
  }

  /**
   * Adds one link pair, keeping the node's other links (importers, the capture pipeline).
   * False when either node is gone or it would link a node to itself; an existing link
   * between the two takes the new type.
   */
  add(tenantId: string, sourceId: string, targetId: string, type: LinkType): boolean {
    return this.tx.withTx(() => {
      if (sourceId === targetId || this.repo.existingIds(tenantId, [sourceId, targetId]).size !== 2) return false;
      const now = iso(this.clock.now());
      this.repo.upsert(tenantId, sourceId, targetId, type, now);
      this.repo.upsert(tenantId, targetId, sourceId, INVERSE_LINK_TYPE[type], now);
      return true;
    });
  }

  related(tenantId: string, nodeId: string, limit: number): { nodes: RelatedRow[] } {
    return this.tx.withTx(() => {
      if (!this.repo.nodeExists(tenantId, nodeId)) throw new NotFoundError('Node');
      return { nodes: this.repo.related(tenantId, nodeId, limit) };
    });
  }

  /** Self links, repeated targets and targets this tenant cannot see are one 400, listing each. */
  private validate(tenantId: string, nodeId: string, links: LinkInput[]): void {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    links.forEach((l, i) => {
      if (l.target_id === nodeId) errors.push({ path: `links.${i}.target_id`, message: 'a node cannot link to itself' });
      else if (seen.has(l.target_id)) errors.push({ path: `links.${i}.target_id`, message: 'duplicate target_id' });
      seen.add(l.target_id);
    });
    seen.delete(nodeId);
    const existing = this.repo.existingIds(tenantId, [...seen]);
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
