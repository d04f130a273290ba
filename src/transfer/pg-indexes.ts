// Secondary indexes are built once after a bulk copy rather than kept up to date row by
// row: a GIN or B-tree built over the finished table is several times faster than as many
// inserts into it (node_keywords' GIN at 100k nodes: ~10 s kept, ~2 s built). Unique and
// primary-key indexes stay, so duplicates are still refused while rows arrive.
import type { PgClient } from '../db/pg/connect.js';

export interface DeferredIndex {
  name: string;
  definition: string;
}

/** Drops the tables' non-unique indexes (in the caller's transaction) and returns how to rebuild them. */
export async function dropSecondaryIndexes(pg: PgClient, tables: string[]): Promise<DeferredIndex[]> {
  const r = await pg.query(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
      WHERE t.relname = ANY($1::text[]) AND t.relnamespace = current_schema()::regnamespace
        AND NOT i.indisunique AND NOT i.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
      ORDER BY 1`,
    [tables],
  );
  const out = r.rows as DeferredIndex[];
  for (const ix of out) await pg.query(`DROP INDEX ${ix.name}`);
  return out;
}

/** Builds the dropped indexes again, with room for sorting in memory. */
export async function rebuildIndexes(pg: PgClient, indexes: DeferredIndex[]): Promise<void> {
  await pg.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  for (const ix of indexes) await pg.query(ix.definition);
}
