// Deleting a tenant removes every row that carries its tenant_id, found from the schema's
// own catalogue rather than a list kept by hand, so a table added later is covered too.
// Tables are emptied children first (foreign keys); a second pass removes what triggers
// wrote while the first ran (tenant_stats, PostgreSQL's keyword statistics). The tenant's
// vectors go through the vector store first (its in-memory index forgets them); on SQLite
// the tenant's own FTS5 table is dropped. Runs inside the caller's transaction.
import { ftsTable } from '../db/fts-tables.js';
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

interface Catalogue {
  tables: string[];
  edges: Array<{ child: string; parent: string }>;
}

// vec0's virtual table and its shadow tables are written only through vec0 (the vector
// store); the per-tenant FTS5 tables and theirs are dropped whole.
const SQLITE_CATALOGUE = {
  tables: sql<{ name: string }>`SELECT DISTINCT m.name FROM sqlite_master m, pragma_table_info(m.name) p
    WHERE m.type = 'table' AND p.name = 'tenant_id' AND m.sql NOT LIKE 'CREATE VIRTUAL%'
      AND m.name NOT LIKE 'node\\_vectors%' ESCAPE '\\' AND m.name NOT LIKE 'nodes\\_fts\\_%' ESCAPE '\\'`,
  edges: sql<Catalogue['edges'][number]>`SELECT m.name AS child, f."table" AS parent FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table'`,
};

const PG_CATALOGUE = {
  tables: sql<{ name: string }>`SELECT c.table_name AS name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.column_name = 'tenant_id' AND c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`,
  edges: sql<Catalogue['edges'][number]>`SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent
    FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace`,
};

/** A table named by the catalogue (never by a caller), quoted as an identifier. */
const table = (name: string) => sql.id(name);

export class TenantPurgeRepo {
  private readonly sqlite: boolean;

  constructor(private readonly db: Database) {
    this.sqlite = db.engine === 'sqlite';
  }

  /** Every tenant table, children before the tables they reference. */
  private async catalogue(): Promise<Catalogue> {
    const q = this.sqlite ? SQLITE_CATALOGUE : PG_CATALOGUE;
    const tables = (await this.db.all(q.tables)).map((r) => r.name).sort();
    const edges = await this.db.all(q.edges);
    return { tables: childrenFirst(tables, edges), edges };
  }

  /** Deletes the tenant's rows everywhere, and the tenant. Returns rows deleted per table. */
  async purge(tenantId: string): Promise<Record<string, number>> {
    const { tables } = await this.catalogue();
    const deleted: Record<string, number> = {};
    for (let pass = 0; pass < 2; pass++) {
      for (const t of tables) {
        const n = (await this.db.run(sql`DELETE FROM ${table(t)} WHERE tenant_id = ${tenantId}`)).changes;
        if (n) deleted[t] = (deleted[t] ?? 0) + n;
      }
    }
    // The FTS5 table's name is derived from the tenant id by code (a hash), never user text.
    if (this.sqlite) await this.db.exec(`DROP TABLE IF EXISTS "${ftsTable(tenantId)}"`);
    deleted.tenants = (await this.db.run(sql`DELETE FROM tenants WHERE id = ${tenantId}`)).changes;
    return deleted;
  }

  /** Rows still carrying the tenant's id, per table (tests: a deleted tenant leaves none). */
  async remaining(tenantId: string): Promise<Record<string, number>> {
    const left: Record<string, number> = {};
    for (const t of (await this.catalogue()).tables) {
      const n = Number(await this.db.value(sql`SELECT count(*) AS n FROM ${table(t)} WHERE tenant_id = ${tenantId}`));
      if (n) left[t] = n;
    }
    const tenant = Number(await this.db.value(sql`SELECT count(*) AS n FROM tenants WHERE id = ${tenantId}`));
    if (tenant) left.tenants = tenant;
    return left;
  }

  /** SQLite only: whether the tenant's FTS5 table exists (null on PostgreSQL). */
  async hasKeywordTable(tenantId: string): Promise<boolean | null> {
    if (!this.sqlite) return null;
    return Number(await this.db.value(sql`SELECT count(*) AS n FROM sqlite_master WHERE name = ${ftsTable(tenantId)}`)) === 1;
  }
}

/** Topological order: a table comes before every table it references (self-references ignored). */
export function childrenFirst(tables: string[], edges: Catalogue['edges']): string[] {
  const set = new Set(tables);
  const parentsOf = new Map<string, Set<string>>(tables.map((t) => [t, new Set()]));
  for (const e of edges) if (set.has(e.child) && set.has(e.parent) && e.child !== e.parent) parentsOf.get(e.child)!.add(e.parent);
  // Emit a table once no remaining table references it.
  const out: string[] = [];
  const left = new Set(tables);
  while (left.size) {
    const ready = [...left].filter((t) => ![...left].some((c) => c !== t && parentsOf.get(c)!.has(t)));
    const next = ready.length ? ready : [[...left][0]]; // a cycle: break it anywhere (the second pass tidies up)
    for (const t of next) {
      out.push(t);
      left.delete(t);
    }
  }
  return out;
}
