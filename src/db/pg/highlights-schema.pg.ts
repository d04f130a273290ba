/** The highlights step on PostgreSQL (src/db/migrations/highlights-schema.ts on SQLite). */
export const PG_HIGHLIGHTS = `
CREATE TABLE highlights (
  id         text PRIMARY KEY,
  tenant_id  text NOT NULL REFERENCES tenants(id),
  node_id    text NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  text       text NOT NULL,
  note       text,
  color      text NOT NULL,
  prefix     text NOT NULL DEFAULT '',
  suffix     text NOT NULL DEFAULT '',
  start_pos  bigint,
  end_pos    bigint,
  source     text NOT NULL,
  source_key text NOT NULL,
  created_at text NOT NULL,
  updated_at text NOT NULL
);
CREATE UNIQUE INDEX highlights_source_key ON highlights(tenant_id, source_key);
CREATE INDEX highlights_node ON highlights(tenant_id, node_id, created_at);
ALTER TABLE imports DROP CONSTRAINT imports_kind_check;
ALTER TABLE imports ADD CONSTRAINT imports_kind_check CHECK (kind IN ('markdown', 'bookmarks', 'highlights'));
`;
