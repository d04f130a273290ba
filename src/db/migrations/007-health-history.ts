// Daily graph-health snapshots for the dashboard's charts: one row per tenant and UTC day
// (eight integers), written on the first read of the history each day and refreshed by later
// reads that day, so a year of history is a few kilobytes per tenant.
import type Database from 'better-sqlite3';

export function healthHistorySchema(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS graph_health_daily (
    tenant_id       TEXT NOT NULL REFERENCES tenants(id),
    day             TEXT NOT NULL,           -- UTC date, YYYY-MM-DD
    total_nodes     INTEGER NOT NULL,
    validated_nodes INTEGER NOT NULL,
    total_links     INTEGER NOT NULL,
    total_captures  INTEGER NOT NULL,
    failed_captures INTEGER NOT NULL,
    stale_nodes     INTEGER NOT NULL,
    orphan_nodes    INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, day)
  ) STRICT, WITHOUT ROWID`);
}
