// Tags live as a JSON array on each node (nodes.tags); this reads them across nodes.
import type { Database } from '../db/store/contract.js';
import type { NodeRow } from './nodes.repo.js';
import { statementCache, type Prepare } from './statement-cache.js';

export class TagsRepo {
  private readonly prepare: Prepare;

  constructor(db: Database) {
    this.prepare = statementCache(db);
  }

  /** Every tag of the tenant with how many nodes carry it, most used first. */
  async counts(tenantId: string): Promise<{ name: string; count: number }[]> {
    return await this.prepare(
      `SELECT t.value AS name, count(*) AS count FROM nodes n, json_each(n.tags) t
       WHERE n.tenant_id = ? GROUP BY t.value ORDER BY count DESC, name`,
    ).all(tenantId) as { name: string; count: number }[];
  }

  /** The tenant's nodes carrying this tag. */
  async nodesWith(tenantId: string, name: string): Promise<NodeRow[]> {
    return await this.prepare(
      'SELECT n.* FROM nodes n WHERE n.tenant_id = ? AND EXISTS (SELECT 1 FROM json_each(n.tags) t WHERE t.value = ?) ORDER BY n.seq',
    ).all(tenantId, name) as NodeRow[];
  }
}
