// PostgreSQL → a new SQLite file: `rhizome migrate --from postgres://... --sqlite FILE`.
// PostgreSQL is read in one REPEATABLE READ snapshot; the new file is written in one
// transaction and verified (row counts and checksums read back) before it commits. On any
// failure the new file is removed: nothing half-created is left.
import type Database from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';
import { closeDatabase, openDatabase } from '../db/open.js';
import { createFtsTable } from '../db/fts-tables.js';
import { SqliteStore } from '../db/store/sqlite-store.js';
import { NOTES_JSON_SQLITE } from '../repos/highlights.repo.js';
import { VectorsRepo } from '../repos/vectors.repo.js';
import { indexedBody } from '../search/indexed-text.js';
import { connectPg } from '../db/pg/connect.js';
import { PG_SCHEMA_VERSION, pgSchemaVersion } from '../db/pg/migrate.js';
import { TableChecksum, type TableReport, type Value } from './checksum.js';
import { pgCount, readPgTable } from './pg-io.js';
import { COPY_TABLES, VECTORS, columnsOf, hasVectorTable, sqliteSelect } from './tables.js';
import { TransferError, compareReports, type Progress } from './transfer-error.js';

export async function postgresToSqlite(url: string, sqlitePath: string, progress?: Progress): Promise<TableReport[]> {
  if (existsSync(sqlitePath)) throw new TransferError(`${sqlitePath} already exists; migrate into a new SQLite file`, 'conflict');
  const pg = await connectPg(url);
  let db: Database.Database | undefined;
  try {
    await pg.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const v = await pgSchemaVersion(pg);
    if (v !== PG_SCHEMA_VERSION) throw new TransferError(`the PostgreSQL database is at schema version ${v}, this Rhizome at ${PG_SCHEMA_VERSION}`, 'usage');
    const hasVectors = (await pgCount(pg, VECTORS.name)) > 0;
    const tables = hasVectors ? [...COPY_TABLES, VECTORS] : COPY_TABLES;
    let total = 0;
    for (const t of tables) total += await pgCount(pg, t.name);
    progress?.start(total);

    db = openDatabase(sqlitePath);
    db.exec('BEGIN');
    const source: TableReport[] = [];
    for (const t of tables) {
      const sum = new TableChecksum();
      if (t.name === 'tenant_stats') db.exec('DELETE FROM tenant_stats');
      if (t.name === VECTORS.name) {
        if (!hasVectorTable(db)) throw new TransferError('the PostgreSQL database has vectors but no embedding space');
        const ins = db.prepare('INSERT INTO node_vectors (rowid, tenant_id, embedding) VALUES (?, ?, ?)');
        for await (const row of readPgTable(pg, t, columnsOf(db, t.name), 500)) {
          sum.add(row);
          ins.run(BigInt(row[0] as number), row[1], row[2]);
          progress?.tick();
        }
      } else {
        const columns = columnsOf(db, t.name);
        const ins = db.prepare(`INSERT INTO "${t.name}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
        const vectors = new VectorsRepo(new SqliteStore(db));
        for await (const row of readPgTable(pg, t, columns, t.name === 'capture_files' || t.name === 'capture_images' || t.name === 'capture_snapshots' ? 20 : 1000)) {
          sum.add(row);
          if (t.name === 'embedding_spaces') {
            // The vec0 table is made for the space's dimension, and the space's row with it.
            const r = Object.fromEntries(columns.map((c, i) => [c, row[i]]));
            await vectors.recreate(String(r.model_id), Number(r.dimension), String(r.created_at));
          } else ins.run(...row);
          progress?.tick();
        }
      }
      source.push({ table: t.name, rows: sum.rows, checksum: sum.hex });
    }
    // The keyword index is derived: one FTS5 table per tenant with nodes, as migration 2 builds it
    // (the body with its highlights' notes, assembled by search/indexed-text.ts).
    db.function('rhizome_indexed_body', { deterministic: true }, (body, notes) => indexedBody(String(body), JSON.parse(String(notes)) as string[]));
    for (const tenantId of db.prepare('SELECT DISTINCT tenant_id FROM nodes').pluck().all() as string[]) {
      const fts = createFtsTable(db, tenantId);
      db.prepare(
        `INSERT INTO ${fts} (rowid, title, summary, body, tags)
         SELECT n.seq, n.title, n.summary, rhizome_indexed_body(n.body_markdown, ${NOTES_JSON_SQLITE}),
                coalesce((SELECT group_concat(value, ' ') FROM json_each(n.tags)), '')
           FROM nodes n WHERE n.tenant_id = ? ORDER BY n.seq`,
      ).run(tenantId);
    }
    const target: TableReport[] = [];
    for (const t of tables) {
      const sum = new TableChecksum();
      for (const row of db.prepare(sqliteSelect(t.name, columnsOf(db, t.name))).raw(true).iterate() as Iterable<Value[]>) sum.add(row);
      target.push({ table: t.name, rows: sum.rows, checksum: sum.hex });
    }
    compareReports(source, target);
    db.exec('COMMIT');
    closeDatabase(db);
    db = undefined;
    return source;
  } catch (e) {
    if (db?.open) db.close();
    if (db) for (const f of [sqlitePath, `${sqlitePath}-wal`, `${sqlitePath}-shm`]) rmSync(f, { force: true });
    throw e;
  } finally {
    progress?.stop();
    await pg.query('ROLLBACK').catch(() => {});
    await pg.end().catch(() => {});
  }
}
