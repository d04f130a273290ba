// The picture a captured page offered (its Open Graph image) and its favicon, downloaded at
// capture time so the dashboard's cards work offline. In the database, like uploads, so
// rhizome.db alone stays a complete backup.
import type Database from 'better-sqlite3';

export function captureImagesSchema(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS capture_images (
    capture_id TEXT NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    tenant_id  TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('image','favicon')),
    mime       TEXT NOT NULL,
    bytes      BLOB NOT NULL,
    PRIMARY KEY (capture_id, kind)
  ) STRICT`);
}
