// Schema version 4 (imports): each imported file's key (source + vault path) and content
// hash → the node it became, so a re-import updates instead of duplicating; and each
// import run with its status, counts and problems.
import type Database from 'better-sqlite3';

export function migrateImports(db: Database.Database): void {
  db.exec(`
    CREATE TABLE import_keys (
      tenant_id    TEXT NOT NULL REFERENCES tenants(id),
      key          TEXT NOT NULL,
      node_id      TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
      content_hash TEXT NOT NULL,
      updated_at   TEXT NOT NULL,
      PRIMARY KEY (tenant_id, key)
    ) STRICT;
    CREATE INDEX import_keys_by_hash ON import_keys (tenant_id, content_hash);
    CREATE TABLE imports (
      id          TEXT PRIMARY KEY,
      tenant_id   TEXT NOT NULL REFERENCES tenants(id),
      kind        TEXT NOT NULL CHECK (kind IN ('markdown', 'bookmarks')),
      status      TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'interrupted')),
      total       INTEGER NOT NULL DEFAULT 0,
      counts      TEXT NOT NULL DEFAULT '{}',
      problems    TEXT NOT NULL DEFAULT '[]',
      error       TEXT,
      created_at  TEXT NOT NULL,
      finished_at TEXT
    ) STRICT;
    CREATE INDEX imports_by_tenant ON imports (tenant_id, created_at);
    -- "Was this URL captured?" was answered by scanning the tenant's captures newest first
    -- (the planner preferred the created_at index for the ORDER BY): a bookmark import asks
    -- it once per bookmark. With the order in the URL index the answer is one index seek.
    DROP INDEX captures_tenant_url;
    CREATE INDEX captures_tenant_url ON captures (tenant_id, url_normalized, created_at DESC, id DESC);
  `);
}
