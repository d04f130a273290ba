// Tags live as a JSON array on each node (nodes.tags); this reads them across nodes. The
// array's elements are a table function on each engine: SQLite's json_each, PostgreSQL's
// json_array_elements_text.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';
import type { NodeRow } from './nodes.repo.js';

export class TagsRepo {
  constructor(private readonly db: Database) {}

  /** Every tag of the tenant with how many nodes carry it, most used first. */
  async counts(tenantId: string): Promise<{ name: string; count: number }[]> {
    return await this.db.all(
      this.db.engine === 'postgres'
        ? sql<{ name: string; count: number }>`SELECT t.value AS name, count(*) AS count FROM nodes n, json_array_elements_text(n.tags::json) AS t(value)
            WHERE n.tenant_id = ${tenantId} GROUP BY t.value ORDER BY count DESC, name`
        : sql<{ name: string; count: number }>`SELECT t.value AS name, count(*) AS count FROM nodes n, json_each(n.tags) t
            WHERE n.tenant_id = ${tenantId} GROUP BY t.value ORDER BY count DESC, name`,
    );
  }

  /** The tenant's nodes carrying this tag. */
  async nodesWith(tenantId: string, name: string): Promise<NodeRow[]> {
    return await this.db.all(
      this.db.engine === 'postgres'
        ? sql<NodeRow>`SELECT n.* FROM nodes n WHERE n.tenant_id = ${tenantId} AND EXISTS (SELECT 1 FROM json_array_elements_text(n.tags::json) AS t(value) WHERE t.value = ${name}) ORDER BY n.seq`
        : sql<NodeRow>`SELECT n.* FROM nodes n WHERE n.tenant_id = ${tenantId} AND EXISTS (SELECT 1 FROM json_each(n.tags) t WHERE t.value = ${name}) ORDER BY n.seq`,
    );
  }
}
