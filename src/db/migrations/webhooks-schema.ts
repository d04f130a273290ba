// Webhook subscriptions and their delivery log. A delivery row is written in the same
// transaction as the change it announces (the outbox), with the durable job that sends
// it; its id is the Standard Webhooks `webhook-id`, the same on every retry and replay.
import type Database from 'better-sqlite3';

export function webhooksSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS webhooks (
      id         TEXT PRIMARY KEY,
      tenant_id  TEXT NOT NULL REFERENCES tenants(id),
      url        TEXT NOT NULL,
      events     TEXT NOT NULL,             -- JSON array of event names
      secret     TEXT NOT NULL,             -- whsec_<base64>: shown once, kept to sign
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX IF NOT EXISTS webhooks_by_tenant ON webhooks (tenant_id, created_at);
    CREATE TABLE IF NOT EXISTS webhook_deliveries (
      id              TEXT PRIMARY KEY,     -- msg_…, the webhook-id header
      tenant_id       TEXT NOT NULL,
      webhook_id      TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
      event_type      TEXT NOT NULL,
      body            TEXT NOT NULL,        -- {type, timestamp, data}, fixed when the event happened
      status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts        INTEGER NOT NULL DEFAULT 0,
      response_status INTEGER,
      response_ms     INTEGER,
      error           TEXT,
      created_at      TEXT NOT NULL,
      last_attempt_at TEXT,
      delivered_at    TEXT
    ) STRICT;
    CREATE INDEX IF NOT EXISTS webhook_deliveries_by_hook ON webhook_deliveries (tenant_id, webhook_id, created_at);
  `);
}

/** The same step on PostgreSQL. */
export const PG_WEBHOOKS_SCHEMA = `
CREATE TABLE IF NOT EXISTS webhooks (
  id         text PRIMARY KEY,
  tenant_id  text NOT NULL REFERENCES tenants(id),
  url        text NOT NULL,
  events     text NOT NULL,
  secret     text NOT NULL,
  created_at text NOT NULL
);
CREATE INDEX IF NOT EXISTS webhooks_by_tenant ON webhooks (tenant_id, created_at);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id              text PRIMARY KEY,
  tenant_id       text NOT NULL,
  webhook_id      text NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_type      text NOT NULL,
  body            text NOT NULL,
  status          text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        bigint NOT NULL DEFAULT 0,
  response_status bigint,
  response_ms     bigint,
  error           text,
  created_at      text NOT NULL,
  last_attempt_at text,
  delivered_at    text
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_hook ON webhook_deliveries (tenant_id, webhook_id, created_at);
`;
