// Feed subscriptions and the items already seen. Polling is a durable job per feed
// (services/feeds/feed-poll.ts); the row keeps what conditional GET, backoff and the
// "failing for a week" mark need. An item is known by its GUID (or id), else its URL.
import type Database from 'better-sqlite3';

export function feedsSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS feeds (
      id                 TEXT PRIMARY KEY,
      tenant_id          TEXT NOT NULL REFERENCES tenants(id),
      url                TEXT NOT NULL,        -- the feed document's URL
      site_url           TEXT,
      title              TEXT NOT NULL,
      format             TEXT,                 -- rss, atom, json, rdf
      feed_tag           TEXT NOT NULL,        -- the tag every item's node carries
      tags               TEXT NOT NULL DEFAULT '[]',
      para_item_id       TEXT,
      interval_minutes   INTEGER NOT NULL,
      status             TEXT NOT NULL CHECK (status IN ('active', 'paused', 'failing')),
      etag               TEXT,
      last_modified      TEXT,
      last_polled_at     TEXT,
      last_success_at    TEXT,
      next_poll_at       TEXT,
      error_count        INTEGER NOT NULL DEFAULT 0,
      failing_since      TEXT,
      last_error         TEXT,
      items_seen         INTEGER NOT NULL DEFAULT 0,
      created_at         TEXT NOT NULL,
      UNIQUE (tenant_id, url)
    ) STRICT;
    CREATE TABLE IF NOT EXISTS feed_items (
      tenant_id  TEXT NOT NULL,
      feed_id    TEXT NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
      item_key   TEXT NOT NULL,
      url        TEXT,
      capture_id TEXT,                         -- null: seen but not captured (beyond a poll's cap)
      created_at TEXT NOT NULL,
      PRIMARY KEY (feed_id, item_key)
    ) STRICT;
    CREATE INDEX IF NOT EXISTS feed_items_by_capture ON feed_items (tenant_id, capture_id);
  `);
}

/** The same step on PostgreSQL. */
export const PG_FEEDS_SCHEMA = `
CREATE TABLE IF NOT EXISTS feeds (
  id                 text PRIMARY KEY,
  tenant_id          text NOT NULL REFERENCES tenants(id),
  url                text NOT NULL,
  site_url           text,
  title              text NOT NULL,
  format             text,
  feed_tag           text NOT NULL,
  tags               text NOT NULL DEFAULT '[]',
  para_item_id       text,
  interval_minutes   bigint NOT NULL,
  status             text NOT NULL CHECK (status IN ('active', 'paused', 'failing')),
  etag               text,
  last_modified      text,
  last_polled_at     text,
  last_success_at    text,
  next_poll_at       text,
  error_count        bigint NOT NULL DEFAULT 0,
  failing_since      text,
  last_error         text,
  items_seen         bigint NOT NULL DEFAULT 0,
  created_at         text NOT NULL,
  UNIQUE (tenant_id, url)
);
CREATE TABLE IF NOT EXISTS feed_items (
  tenant_id  text NOT NULL,
  feed_id    text NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
  item_key   text NOT NULL,
  url        text,
  capture_id text,
  created_at text NOT NULL,
  PRIMARY KEY (feed_id, item_key)
);
CREATE INDEX IF NOT EXISTS feed_items_by_capture ON feed_items (tenant_id, capture_id);
`;
