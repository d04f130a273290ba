// The archived copy of a captured page: one self-contained HTML file per capture (styles and
// images inlined, nothing that runs), kept in the database like uploads so rhizome.db alone
// is a complete backup. PDFs and images need no copy: their original bytes are capture_files.
import type Database from 'better-sqlite3';

export function captureSnapshotsSchema(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS capture_snapshots (
    capture_id  TEXT PRIMARY KEY REFERENCES captures(id) ON DELETE CASCADE,
    tenant_id   TEXT NOT NULL,
    mime        TEXT NOT NULL,
    bytes       BLOB NOT NULL,
    source_url  TEXT NOT NULL,
    report      TEXT NOT NULL DEFAULT '{}',
    archived_at TEXT NOT NULL
  ) STRICT`);
}
