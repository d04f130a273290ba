// Highlights on nodes: the quoted words with their context (a W3C TextQuoteSelector), the
// offsets where they were (a TextPositionSelector, recomputed on read), a note and a colour.
// source_key makes imports idempotent: a Kindle clipping, a Readwise row or a capture's
// selected text is written once however often it is imported; an API highlight's key is its id.
import type Database from 'better-sqlite3';

export const HIGHLIGHTS_SQL = `CREATE TABLE IF NOT EXISTS highlights (
    id         TEXT PRIMARY KEY,
    tenant_id  TEXT NOT NULL REFERENCES tenants(id),
    node_id    TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    text       TEXT NOT NULL,
    note       TEXT,
    color      TEXT NOT NULL,
    prefix     TEXT NOT NULL DEFAULT '',
    suffix     TEXT NOT NULL DEFAULT '',
    start_pos  INTEGER,
    end_pos    INTEGER,
    source     TEXT NOT NULL,
    source_key TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX IF NOT EXISTS highlights_source_key ON highlights(tenant_id, source_key);
  CREATE INDEX IF NOT EXISTS highlights_node ON highlights(tenant_id, node_id, created_at);`;

/** Import runs of a third kind, 'highlights' (Kindle, Readwise): SQLite rebuilds the table to widen its CHECK. */
const IMPORTS_WITH_HIGHLIGHTS = `CREATE TABLE imports_next (
    id          TEXT PRIMARY KEY,
    tenant_id   TEXT NOT NULL REFERENCES tenants(id),
    kind        TEXT NOT NULL CHECK (kind IN ('markdown', 'bookmarks', 'highlights')),
    status      TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'interrupted')),
    total       INTEGER NOT NULL DEFAULT 0,
    counts      TEXT NOT NULL DEFAULT '{}',
    problems    TEXT NOT NULL DEFAULT '[]',
    error       TEXT,
    created_at  TEXT NOT NULL,
    finished_at TEXT
  ) STRICT;
  INSERT INTO imports_next SELECT * FROM imports;
  DROP TABLE imports;
  ALTER TABLE imports_next RENAME TO imports;
  CREATE INDEX imports_by_tenant ON imports (tenant_id, created_at);`;

export function highlightsSchema(db: Database.Database): void {
  db.exec(HIGHLIGHTS_SQL);
  db.exec(IMPORTS_WITH_HIGHLIGHTS);
}
