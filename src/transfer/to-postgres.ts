// SQLite → PostgreSQL: `rhizome migrate --to postgres://...`. The target must be empty.
// The schema and every row go in one PostgreSQL transaction, verified (row counts and
// per-table checksums read back from PostgreSQL) before it commits: a failure anywhere
// leaves the target as it was.
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { existsSync } from 'node:fs';
import { SCHEMA_VERSION } from '../db/migrate.js';
import { nodeLexemes } from '../search/lexemes.js';
import { indexedBody } from '../search/indexed-text.js';
import { NOTES_JSON_SQLITE } from '../repos/highlights.repo.js';
import { connectPg, type PgClient } from '../db/pg/connect.js';
import { migratePg, pgSchemaVersion } from '../db/pg/migrate.js';
import { TableChecksum, type TableReport, type Value } from './checksum.js';
import { PgBatchInsert, pgCount, readPgTable } from './pg-io.js';
import { dropSecondaryIndexes, rebuildIndexes } from './pg-indexes.js';
import { COPY_TABLES, IDENTITY_COLUMNS, VECTORS, columnsOf, hasVectorTable, sqliteSelect, type CopyTable } from './tables.js';
import { TransferError, compareReports, type Progress } from './transfer-error.js';

/** Refuses a database that already holds Rhizome data. */
async function assertEmpty(pg: PgClient): Promise<void> {
  if ((await pgSchemaVersion(pg)) === 0) return;
  for (const t of [...COPY_TABLES, VECTORS]) {
    const present = await pg.query('SELECT to_regclass($1) IS NOT NULL AS p', [t.name]);
    if (!present.rows[0].p) continue;
    const n = await pgCount(pg, t.name);
    if (n > 0) throw new TransferError(`the target PostgreSQL database is not empty (${t.name} has ${n} rows); migrate into an empty database`, 'conflict');
  }
}

export function openSqliteSource(path: string): Database.Database {
  if (!existsSync(path)) throw new TransferError(`no SQLite database at ${path}`, 'usage');
  const db = new Database(path, { readonly: true, fileMustExist: true });
  sqliteVec.load(db);
  const v = db.pragma('user_version', { simple: true }) as number;
  if (v !== SCHEMA_VERSION) {
    db.close();
    throw new TransferError(`${path} is at schema version ${v}, this Rhizome at ${SCHEMA_VERSION}: start \`rhizome serve\` on it once to upgrade it first`, 'usage');
  }
  return db;
}

/** The triggers that keep tenant_stats while the server runs (schema.pg.sql). */
const STATS_TRIGGERS: Array<[string, string]> = [
  ['tenants', 'tenants_stats_ai'],
  ['nodes', 'nodes_stats'],
  ['links', 'links_stats'],
  ['captures', 'captures_stats'],
];

const sourceTables = (src: Database.Database): CopyTable[] => (hasVectorTable(src) ? [...COPY_TABLES, VECTORS] : COPY_TABLES);

export async function sqliteToPostgres(sqlitePath: string, url: string, progress?: Progress): Promise<TableReport[]> {
  const src = openSqliteSource(sqlitePath);
  let pg: PgClient | undefined;
  try {
    pg = await connectPg(url);
    await assertEmpty(pg);
    src.exec('BEGIN'); // one read snapshot, even while a server writes
    const tables = sourceTables(src);
    const total = tables.reduce((s, t) => s + (src.prepare(`SELECT count(*) FROM "${t.name}"`).pluck().get() as number), 0);
    progress?.start(total);
    await pg.query('BEGIN');
    try {
      await migratePg(pg, { inTransaction: true });
      // Rebuilt below in bulk: the per-row trigger would cost one upsert per distinct term.
      await pg.query('ALTER TABLE node_keywords DISABLE TRIGGER node_keywords_stats');
      // No process keeps postings of a database being filled: nothing to log.
      await pg.query('ALTER TABLE node_keywords DISABLE TRIGGER node_keywords_log');
      // Nobody serves a database being filled: no notification per copied vector.
      await pg.query('ALTER TABLE node_vectors DISABLE TRIGGER node_vectors_notify');
      // tenant_stats is copied from the source: its counting triggers would only update one
      // row per tenant once per copied row, and in one transaction each update walks every
      // earlier version of that row (600k links took over 8 minutes at 100k nodes).
      for (const [table, trigger] of STATS_TRIGGERS) await pg.query(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
      const deferred = await dropSecondaryIndexes(pg, [...tables.map((t) => t.name), 'node_keywords']);
      const source: TableReport[] = [];
      for (const t of tables) {
        const columns = columnsOf(src, t.name);
        const sum = new TableChecksum();
        const out = new PgBatchInsert(pg, t.name, columns);
        for (const row of src.prepare(sqliteSelect(t.name, columns)).raw(true).iterate() as Iterable<Value[]>) {
          sum.add(row);
          await out.add(row);
          progress?.tick();
        }
        await out.done();
        source.push({ table: t.name, rows: sum.rows, checksum: sum.hex });
      }
      await rebuildKeywords(src, pg);
      await rebuildIndexes(pg, deferred);
      await pg.query('ALTER TABLE node_keywords ENABLE TRIGGER node_keywords_stats');
      await pg.query('ALTER TABLE node_keywords ENABLE TRIGGER node_keywords_log');
      await pg.query('ALTER TABLE node_vectors ENABLE TRIGGER node_vectors_notify');
      for (const [table, trigger] of STATS_TRIGGERS) await pg.query(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
      for (const [table, col] of IDENTITY_COLUMNS) {
        await pg.query(`SELECT setval(pg_get_serial_sequence('${table}', '${col}'), coalesce((SELECT max(${col}) FROM ${table}), 0) + 1, false)`);
      }
      const target: TableReport[] = [];
      for (const t of tables) {
        const sum = new TableChecksum();
        for await (const row of readPgTable(pg, t, columnsOf(src, t.name))) sum.add(row);
        target.push({ table: t.name, rows: sum.rows, checksum: sum.hex });
      }
      compareReports(source, target);
      await pg.query('COMMIT');
      // Fresh statistics for the planner and a visibility map, so counts over an index read
      // no table rows (graph health's stale count at 10k: 4.0 → 1.4 ms); autovacuum would
      // get there later, the first users of the copy would pay meanwhile.
      await pg.query('VACUUM (ANALYZE)');
      return source;
    } catch (e) {
      await pg.query('ROLLBACK').catch(() => {});
      throw e;
    }
  } finally {
    progress?.stop();
    if (src.inTransaction) src.exec('COMMIT');
    src.close();
    await pg?.end().catch(() => {});
  }
}

/** The PostgreSQL keyword index from the nodes, and each tenant's statistics from it. */
async function rebuildKeywords(src: Database.Database, pg: PgClient): Promise<void> {
  const out = new PgBatchInsert(pg, 'node_keywords', ['seq', 'tenant_id', 'terms', 'tf', 'len']);
  // Each node's highlight notes come as one JSON array: they are part of its indexed body (search/indexed-text.ts).
  const rows = src.prepare(
    `SELECT n.seq, n.tenant_id, n.title, n.summary, n.body_markdown, n.tags, ${NOTES_JSON_SQLITE} AS notes FROM nodes n`,
  ).iterate() as Iterable<{
    seq: number; tenant_id: string; title: string; summary: string; body_markdown: string; tags: string; notes: string;
  }>;
  for (const n of rows) {
    const body = indexedBody(n.body_markdown, JSON.parse(n.notes) as string[]);
    const l = nodeLexemes({ title: n.title, summary: n.summary, body, tags: (JSON.parse(n.tags) as string[]).join(' ') });
    await out.add([n.seq, n.tenant_id, l.tsvector, JSON.stringify(l.tf), l.len]);
  }
  await out.done();
  await pg.query('INSERT INTO keyword_stats (tenant_id, docs, total_len) SELECT tenant_id, count(*), coalesce(sum(len), 0) FROM node_keywords GROUP BY tenant_id');
  await pg.query(
    'INSERT INTO keyword_terms (tenant_id, term, df) SELECT tenant_id, t, count(*) FROM node_keywords, jsonb_object_keys(tf) t GROUP BY tenant_id, t',
  );
}
