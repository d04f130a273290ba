// Schema version 2 (relevance): per-tenant keyword tables, model calibrations, and the
// PARA filings a user turned down.
import type Database from 'better-sqlite3';
import { createFtsTable } from '../fts-tables.js';

export function migrateRelevance(db: Database.Database): void {
  // The shared nodes_fts mixed every tenant's term statistics into each tenant's BM25.
  const tenants = db.prepare('SELECT DISTINCT tenant_id FROM nodes').pluck().all() as string[];
  for (const tenantId of tenants) {
    const t = createFtsTable(db, tenantId);
    db.prepare(
      `INSERT INTO ${t} (rowid, title, summary, body, tags)
       SELECT seq, title, summary, body_markdown, coalesce((SELECT group_concat(value, ' ') FROM json_each(nodes.tags)), '')
         FROM nodes WHERE tenant_id = ? ORDER BY seq`,
    ).run(tenantId);
  }
  db.exec('DROP TABLE IF EXISTS nodes_fts');
  db.exec(`
    -- How an embedding model's cosine similarities read (search/calibration.ts), per model.
    CREATE TABLE embedding_calibrations (
      model_id    TEXT PRIMARY KEY,
      set_hash    TEXT NOT NULL,
      calibration TEXT NOT NULL,   -- JSON: query and note scales (floor, ceiling, auc, ...)
      computed_at TEXT NOT NULL
    ) STRICT;

    -- An automatic PARA filing the user removed: the classifier never files it again.
    CREATE TABLE para_rejections (
      tenant_id    TEXT NOT NULL,
      node_id      TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
      para_item_id TEXT NOT NULL REFERENCES para_items(id) ON DELETE CASCADE,
      created_at   TEXT NOT NULL,
      PRIMARY KEY (node_id, para_item_id)
    ) STRICT;
    CREATE INDEX para_rejections_tenant ON para_rejections(tenant_id, node_id);
  `);
}
