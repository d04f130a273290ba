// Operators: a tenant can be suspended (its keys and sessions get 403 tenant_suspended until
// it is resumed), and operator keys, created only by `rhizome operator create-key` on the
// server, reach the /api/v1/admin routes and /metrics. An operator key names no tenant.
import type Database from 'better-sqlite3';

export function operatorsSchema(db: Database.Database): void {
  // SQLite has no ADD COLUMN IF NOT EXISTS: a step replayed over a file that has them skips them.
  const has = new Set((db.prepare("SELECT name FROM pragma_table_info('tenants')").all() as Array<{ name: string }>).map((c) => c.name));
  if (!has.has('status')) db.exec("ALTER TABLE tenants ADD COLUMN status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended'))");
  if (!has.has('suspended_at')) db.exec('ALTER TABLE tenants ADD COLUMN suspended_at TEXT');
  db.exec(`
    CREATE TABLE IF NOT EXISTS operator_keys (
      id           TEXT PRIMARY KEY,
      name         TEXT NOT NULL,
      secret_hmac  BLOB NOT NULL,
      created_at   TEXT NOT NULL,
      last_used_at TEXT,
      revoked_at   TEXT
    ) STRICT;
  `);
}

/** The same step on PostgreSQL. */
export const PG_OPERATORS_SCHEMA = `
ALTER TABLE tenants ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended'));
ALTER TABLE tenants ADD COLUMN suspended_at text;
CREATE TABLE operator_keys (
  id           text PRIMARY KEY,
  name         text NOT NULL,
  secret_hmac  bytea NOT NULL,
  created_at   text NOT NULL,
  last_used_at text,
  revoked_at   text
);
`;
