// Rules (when → then, applied in `position` order) and the log of what each did, one row per
// action, kept so that each can be undone.
import type Database from 'better-sqlite3';

export function rulesSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS rules (
      id         TEXT PRIMARY KEY,
      tenant_id  TEXT NOT NULL REFERENCES tenants(id),
      name       TEXT NOT NULL,
      conditions TEXT NOT NULL,               -- the rule's "when", JSON
      actions    TEXT NOT NULL,               -- the rule's "then", JSON
      position   INTEGER NOT NULL,            -- rules apply in ascending position, then creation
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX IF NOT EXISTS rules_by_tenant ON rules (tenant_id, position, created_at);
    CREATE TABLE IF NOT EXISTS rule_actions (
      id         TEXT PRIMARY KEY,
      tenant_id  TEXT NOT NULL,
      rule_id    TEXT NOT NULL REFERENCES rules(id) ON DELETE CASCADE,
      node_id    TEXT,                        -- null for a feed item skipped before it was captured
      kind       TEXT NOT NULL,               -- add_tags, file_para, set_status, skip, skip_item
      detail     TEXT NOT NULL,               -- what changed, enough to undo it (JSON)
      source     TEXT NOT NULL,               -- capture, feed_item, import, run
      created_at TEXT NOT NULL,
      undone_at  TEXT
    ) STRICT;
    CREATE INDEX IF NOT EXISTS rule_actions_by_rule ON rule_actions (tenant_id, rule_id, created_at);
  `);
}

/** The same step on PostgreSQL. */
export const PG_RULES_SCHEMA = `
CREATE TABLE IF NOT EXISTS rules (
  id         text PRIMARY KEY,
  tenant_id  text NOT NULL REFERENCES tenants(id),
  name       text NOT NULL,
  conditions text NOT NULL,
  actions    text NOT NULL,
  position   bigint NOT NULL,
  created_at text NOT NULL
);
CREATE INDEX IF NOT EXISTS rules_by_tenant ON rules (tenant_id, position, created_at);
CREATE TABLE IF NOT EXISTS rule_actions (
  id         text PRIMARY KEY,
  tenant_id  text NOT NULL,
  rule_id    text NOT NULL REFERENCES rules(id) ON DELETE CASCADE,
  node_id    text,
  kind       text NOT NULL,
  detail     text NOT NULL,
  source     text NOT NULL,
  created_at text NOT NULL,
  undone_at  text
);
CREATE INDEX IF NOT EXISTS rule_actions_by_rule ON rule_actions (tenant_id, rule_id, created_at);
`;
