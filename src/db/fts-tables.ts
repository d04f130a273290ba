// The per-tenant FTS5 tables' names and definition, shared by the migration that created
// them for existing data and by the keyword index repository that creates them for new tenants.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

export const FTS_COLUMNS = 'title, summary, body, tags';
export const FTS_OPTIONS = "content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'";

/** The tenant's FTS5 table name: derived from its id, never from user text. */
export function ftsTable(tenantId: string): string {
  return `nodes_fts_${createHash('sha256').update(tenantId).digest('hex').slice(0, 20)}`;
}

/** Creates the tenant's table if missing (migrations and the repo share this). */
export function createFtsTable(db: Database.Database, tenantId: string): string {
  const t = ftsTable(tenantId);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${t} USING fts5(${FTS_COLUMNS}, ${FTS_OPTIONS})`);
  return t;
}

