// What `rhizome migrate` copies, in an order that satisfies every foreign key. Derived data
// is rebuilt instead of copied: the keyword index (per-tenant FTS5 tables on SQLite,
// node_keywords and its statistics on PostgreSQL). tenant_stats holds the source's counters
// (SQLite's triggers count while rows arrive, then give way; PostgreSQL's are off during
// the copy); embedding_spaces and the
// vectors are copied apart (on SQLite the vec0 table is created for their dimension).
import type Database from 'better-sqlite3';

export interface CopyTable {
  name: string;
  /** Primary key columns: the PostgreSQL side is read in pages by key. */
  key: string[];
}

export const COPY_TABLES: CopyTable[] = [
  { name: 'server_meta', key: ['key'] },
  { name: 'tenants', key: ['id'] },
  { name: 'users', key: ['id'] },
  { name: 'api_keys', key: ['id'] },
  { name: 'operator_keys', key: ['id'] },
  { name: 'magic_links', key: ['token_hmac'] },
  { name: 'refresh_tokens', key: ['id'] },
  { name: 'oauth_clients', key: ['client_id'] },
  { name: 'oauth_requests', key: ['handle_hmac'] },
  { name: 'oauth_codes', key: ['code_hmac'] },
  { name: 'nodes', key: ['seq'] },
  { name: 'para_items', key: ['id'] },
  { name: 'node_para', key: ['node_id', 'para_item_id'] },
  { name: 'para_rejections', key: ['node_id', 'para_item_id'] },
  { name: 'links', key: ['source_id', 'target_id'] },
  { name: 'rate_limits', key: ['tenant_id', 'name'] },
  { name: 'captures', key: ['id'] },
  { name: 'capture_files', key: ['capture_id'] },
  { name: 'capture_images', key: ['capture_id', 'kind'] },
  { name: 'capture_snapshots', key: ['capture_id'] },
  { name: 'capture_events', key: ['id'] },
  { name: 'capture_stages', key: ['id'] },
  { name: 'highlights', key: ['id'] },
  { name: 'jobs', key: ['id'] },
  { name: 'embedding_calibrations', key: ['model_id'] },
  { name: 'oidc_flows', key: ['id'] },
  { name: 'oidc_handoffs', key: ['code_hmac'] },
  { name: 'import_keys', key: ['tenant_id', 'key'] },
  { name: 'imports', key: ['id'] },
  { name: 'embedding_spaces', key: ['id'] },
  { name: 'graph_health_daily', key: ['tenant_id', 'day'] },
  { name: 'tenant_stats', key: ['tenant_id'] },
];

/** The vectors: vec0's rowid is the node's seq. */
export const VECTORS: CopyTable = { name: 'node_vectors', key: ['seq'] };

/** Identity columns whose sequence must continue after the copied rows (PostgreSQL). */
export const IDENTITY_COLUMNS: Array<[string, string]> = [
  ['nodes', 'seq'],
  ['capture_events', 'id'],
  ['capture_stages', 'id'],
  ['jobs', 'id'],
];

/** Column names in table order, from the SQLite schema (both backends have the same columns). */
export function columnsOf(db: Database.Database, table: string): string[] {
  if (table === VECTORS.name) return ['seq', 'tenant_id', 'embedding'];
  return (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]);
}

export function hasVectorTable(db: Database.Database): boolean {
  return !!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'node_vectors'").get();
}

/** SQL reading every row of a table from SQLite, columns in order. */
export function sqliteSelect(table: string, columns: string[]): string {
  if (table === VECTORS.name) return 'SELECT rowid AS seq, tenant_id, embedding FROM node_vectors';
  return `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}"`;
}
