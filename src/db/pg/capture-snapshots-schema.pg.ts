/** The archived-copy step on PostgreSQL (src/db/migrations/capture-snapshots-schema.ts on SQLite). */
export const PG_CAPTURE_SNAPSHOTS = `
CREATE TABLE capture_snapshots (
  capture_id  text PRIMARY KEY REFERENCES captures(id) ON DELETE CASCADE,
  tenant_id   text NOT NULL,
  mime        text NOT NULL,
  bytes       bytea NOT NULL,
  source_url  text NOT NULL,
  report      text NOT NULL DEFAULT '{}',
  archived_at text NOT NULL
);
ALTER TABLE capture_snapshots ALTER COLUMN bytes SET STORAGE EXTERNAL;
`;
