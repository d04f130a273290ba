// When the thing a node describes happened (`occurred_at`, ISO 8601 UTC, optional), beside
// the record's own created_at: an agent recording last May's trip, an import of old notes.
// The dates a node's text mentions are kept too (mentioned_dates). Retrieval filters and boosts by the node's date, occurred_at where it is known, else
// created_at; the index serves date-range reads of a tenant. Idempotent.
import type Database from 'better-sqlite3';

export function nodeDatesSchema(db: Database.Database): void {
  const has = new Set(db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('nodes') as string[]);
  if (!has.has('occurred_at')) db.exec('ALTER TABLE nodes ADD COLUMN occurred_at TEXT');
  // The dates its text mentions ('YYYY-MM-DD', 'YYYY-MM' or 'YYYY', a JSON array), read in the background.
  if (!has.has('mentioned_dates')) db.exec("ALTER TABLE nodes ADD COLUMN mentioned_dates TEXT NOT NULL DEFAULT '[]'");
  db.exec('CREATE INDEX IF NOT EXISTS nodes_tenant_date ON nodes(tenant_id, coalesce(occurred_at, created_at))');
}
