// Deleting a tenant removes every row that carries its tenant_id, found from the schema's
// own catalogue rather than a list kept by hand, so a table added later is covered too.
// Tables are emptied children first (foreign keys); a second pass removes what triggers
// wrote while the first ran (tenant_stats, PostgreSQL's keyword statistics). The tenant's
// vectors go through the vector store first (its in-memory index forgets them); on SQLite
// the tenant's own FTS5 table is dropped. Runs inside the caller's transaction.
import type { Db } from '../db/open.js';
import { ftsTable } from '../db/fts-tables.js';
import { PgDb } from '../db/pg/pg-db.js';

interface Catalogue {
  tables: string[];
  edges: Array<{ child: string; parent: string }>;
}

// vec0's virtual table and its shadow tables are written only through vec0 (the vector
// store); the per-tenant FTS5 tables and theirs are dropped whole.
const SQLITE_CATALOGUE = {
  tables: `SELECT DISTINCT m.name FROM sqlite_master m, pragma_table_info(m.name) p
    WHERE m.type = 'table' AND p.name = 'tenant_id' AND m.sql NOT LIKE 'CREATE VIRTUAL%'
      AND m.name NOT LIKE 'node\\_vectors%' ESCAPE '\\' AND m.name NOT LIKE 'nodes\\_fts\\_%' ESCAPE '\\'`,
  edges: `SELECT m.name AS child, f."table" AS parent FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table'`,
};

const PG_CATALOGUE = {
  tables: `SELECT c.table_name AS name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.column_name = 'tenant_id' AND c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`,
  // CAST, not ::, which the SQL translation would read as a named parameter.
  edges: `SELECT CAST(CAST(conrelid AS regclass) AS text) AS child, CAST(CAST(confrelid AS regclass) AS text) AS parent
    FROM pg_constraint WHERE contype = 'f' AND connamespace = CAST(current_schema() AS regnamespace)`,
};

export class TenantPurgeRepo {
  private readonly db: Db;
  private readonly sqlite: boolean;

  constructor(db: Db | PgDb) {
    this.sqlite = !(db instanceof PgDb);
    this.db = db as Db;
  }

  /** Every tenant table, children before the tables they reference. */
  private catalogue(): Catalogue {
    const q = this.sqlite ? SQLITE_CATALOGUE : PG_CATALOGUE;
    const tables = (this.db.prepare(q.tables).all() as Array<{ name: string }>).map((r) => r.name).sort();
    const edges = this.db.prepare(q.edges).all() as Catalogue['edges'];
    return { tables: childrenFirst(tables, edges), edges };
  }

  /** Deletes the tenant's rows everywhere, and the tenant. Returns rows deleted per table. */
  purge(tenantId: string): Record<string, number> {
    const { tables } = this.catalogue();
    const deleted: Record<string, number> = {};
    for (let pass = 0; pass < 2; pass++) {
      for (const t of tables) {
        const n = this.db.prepare(`DELETE FROM "${t}" WHERE tenant_id = ?`).run(tenantId).changes;
        if (n) deleted[t] = (deleted[t] ?? 0) + n;
      }
    }
    if (this.sqlite) this.db.exec(`DROP TABLE IF EXISTS ${ftsTable(tenantId)}`);
    deleted.tenants = this.db.prepare('DELETE FROM tenants WHERE id = ?').run(tenantId).changes;
    return deleted;
  }

  /** Rows still carrying the tenant's id, per table (tests: a deleted tenant leaves none). */
  remaining(tenantId: string): Record<string, number> {
    const left: Record<string, number> = {};
    for (const t of this.catalogue().tables) {
      const n = Number(this.db.prepare(`SELECT count(*) FROM "${t}" WHERE tenant_id = ?`).pluck().get(tenantId));
      if (n) left[t] = n;
    }
    const tenant = Number(this.db.prepare('SELECT count(*) FROM tenants WHERE id = ?').pluck().get(tenantId));
    if (tenant) left.tenants = tenant;
    return left;
  }

  /** SQLite only: whether the tenant's FTS5 table exists (null on PostgreSQL). */
  hasKeywordTable(tenantId: string): boolean | null {
    if (!this.sqlite) return null;
    return this.db.prepare("SELECT count(*) FROM sqlite_master WHERE name = ?").pluck().get(ftsTable(tenantId)) === 1;
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
