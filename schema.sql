-- Rhizome schema, version 1. Applied by src/db/migrate.ts when PRAGMA user_version = 0;
-- later changes are numbered steps in src/db/migrate.ts.
-- Every table holding tenant data carries tenant_id, and every query filters on it.
-- Vector tables (vec0) are created at run time by src/repos/vectors.repo.ts (for src/vectors/) because their
-- dimension depends on the embedding model; embedding_spaces records which one is live.

-- Install-wide key/value settings (server secret, schema notes). Not tenant data.
CREATE TABLE server_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE tenants (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
) STRICT;

-- ---------------------------------------------------------------- auth
CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,
  tenant_id    TEXT NOT NULL REFERENCES tenants(id),
  name         TEXT NOT NULL,
  secret_hmac  BLOB NOT NULL,           -- HMAC-SHA256(server secret, secret); never the secret
  created_at   TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at   TEXT
) STRICT;
CREATE INDEX api_keys_tenant ON api_keys(tenant_id, created_at);

CREATE TABLE users (
  id         TEXT PRIMARY KEY,
  tenant_id  TEXT NOT NULL REFERENCES tenants(id),
  email      TEXT NOT NULL UNIQUE COLLATE NOCASE,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE magic_links (
  token_hmac BLOB PRIMARY KEY,
  tenant_id  TEXT NOT NULL REFERENCES tenants(id),
  user_id    TEXT NOT NULL REFERENCES users(id),
  expires_at INTEGER NOT NULL,          -- epoch ms
  used_at    INTEGER
) STRICT;

CREATE TABLE refresh_tokens (
  id          TEXT PRIMARY KEY,
  tenant_id   TEXT NOT NULL REFERENCES tenants(id),
  user_id     TEXT NOT NULL REFERENCES users(id),
  family_id   TEXT NOT NULL,
  token_hmac  BLOB NOT NULL UNIQUE,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER,                  -- rotated: presenting it again is reuse
  revoked_at  INTEGER
) STRICT;
CREATE INDEX refresh_tokens_family ON refresh_tokens(tenant_id, family_id);

-- ---------------------------------------------------------------- nodes
-- seq is the integer rowid shared with nodes_fts and the vec0 tables; id is the public id.
CREATE TABLE nodes (
  seq           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  tenant_id     TEXT NOT NULL REFERENCES tenants(id),
  title         TEXT NOT NULL,
  summary       TEXT NOT NULL DEFAULT '',
  body_markdown TEXT NOT NULL DEFAULT '',
  tags          TEXT NOT NULL DEFAULT '[]',   -- JSON array of strings
  status        TEXT NOT NULL DEFAULT 'raw' CHECK (status IN ('raw','validated','dismissed')),
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  embedded_hash TEXT                          -- hash of the text last embedded; NULL = no vector yet
) STRICT;
CREATE INDEX nodes_tenant_updated ON nodes(tenant_id, updated_at DESC);
CREATE INDEX nodes_tenant_status_updated ON nodes(tenant_id, status, updated_at);

-- Keyword index over the four searchable fields (external content: no text stored twice).
CREATE VIRTUAL TABLE nodes_fts USING fts5(
  title, summary, body, tags,
  content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2'
);

-- Node ↔ PARA item associations. source 'user' is never overridden by automatic
-- classification; archived=1 hides the association while its item is archived.
CREATE TABLE node_para (
  tenant_id    TEXT NOT NULL,
  node_id      TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  para_item_id TEXT NOT NULL REFERENCES para_items(id),
  source       TEXT NOT NULL CHECK (source IN ('user','auto')),
  score        REAL,
  method       TEXT,
  model        TEXT,
  archived     INTEGER NOT NULL DEFAULT 0,
  created_at   TEXT NOT NULL,
  PRIMARY KEY (node_id, para_item_id)
) STRICT;
CREATE INDEX node_para_item ON node_para(tenant_id, para_item_id, archived);
CREATE INDEX node_para_node ON node_para(tenant_id, node_id, archived);

-- ---------------------------------------------------------------- links
-- Stored in both directions; the reverse row carries the inverse type.
CREATE TABLE links (
  tenant_id  TEXT NOT NULL,
  source_id  TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  target_id  TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  type       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (source_id, target_id)
) STRICT;
CREATE INDEX links_tenant_source ON links(tenant_id, source_id);
CREATE INDEX links_target ON links(target_id);

-- ---------------------------------------------------------------- PARA
CREATE TABLE para_items (
  id              TEXT PRIMARY KEY,
  tenant_id       TEXT NOT NULL REFERENCES tenants(id),
  category        TEXT NOT NULL CHECK (category IN ('projects','areas','resources')),
  label           TEXT NOT NULL,
  description     TEXT NOT NULL DEFAULT '',
  slug            TEXT NOT NULL,
  status          TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','archived','completed')),
  status_before_archive TEXT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  UNIQUE (tenant_id, slug)
) STRICT;
CREATE INDEX para_items_tenant ON para_items(tenant_id, category, status);

-- Per-tenant rate limits that must survive a restart (POST /para/rescan).
CREATE TABLE rate_limits (
  tenant_id TEXT NOT NULL,
  name      TEXT NOT NULL,
  last_at   INTEGER NOT NULL,          -- epoch ms
  PRIMARY KEY (tenant_id, name)
) STRICT;

-- ---------------------------------------------------------------- captures
CREATE TABLE captures (
  id              TEXT PRIMARY KEY,
  tenant_id       TEXT NOT NULL REFERENCES tenants(id),
  status          TEXT NOT NULL CHECK (status IN ('pending','processing','completed','failed','archived','dismissed')),
  status_before_archive TEXT,
  title           TEXT NOT NULL,
  url             TEXT,
  url_normalized  TEXT,
  content_type    TEXT NOT NULL,
  why             TEXT,
  selected_text   TEXT,
  raw_content     TEXT,
  source          TEXT NOT NULL,
  node_id         TEXT,                -- kept (not a foreign key) so deleting either keeps the other
  error           TEXT,
  metadata        TEXT NOT NULL DEFAULT '{}',
  markdown        TEXT,                -- processed content
  attempts        INTEGER NOT NULL DEFAULT 0,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  processed_at    TEXT
) STRICT;
CREATE INDEX captures_tenant_created ON captures(tenant_id, created_at DESC);
CREATE INDEX captures_tenant_status ON captures(tenant_id, status, created_at DESC);
CREATE INDEX captures_tenant_url ON captures(tenant_id, url_normalized);

-- Uploaded bytes live in the database so rhizome.db alone is a complete backup.
CREATE TABLE capture_files (
  capture_id TEXT PRIMARY KEY REFERENCES captures(id) ON DELETE CASCADE,
  tenant_id  TEXT NOT NULL,
  filename   TEXT NOT NULL,
  mime       TEXT NOT NULL,
  bytes      BLOB NOT NULL
) STRICT;

CREATE TABLE capture_events (
  id         INTEGER PRIMARY KEY,
  tenant_id  TEXT NOT NULL,
  capture_id TEXT NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
  kind       TEXT NOT NULL,
  at         TEXT NOT NULL,
  detail     TEXT NOT NULL DEFAULT '{}'
) STRICT;
CREATE INDEX capture_events_capture ON capture_events(tenant_id, capture_id, id);

CREATE TABLE capture_stages (
  id          INTEGER PRIMARY KEY,
  tenant_id   TEXT NOT NULL,
  capture_id  TEXT NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
  run         INTEGER NOT NULL,        -- attempt number; provenance shows the latest run
  stage       TEXT NOT NULL,
  started_at  TEXT NOT NULL,
  finished_at TEXT,
  model       TEXT,
  output      TEXT NOT NULL DEFAULT '{}'
) STRICT;
CREATE INDEX capture_stages_capture ON capture_stages(tenant_id, capture_id, run, id);

-- ---------------------------------------------------------------- jobs
-- Durable background work. A job left 'running' by a dead process is re-queued at start.
CREATE TABLE jobs (
  id          INTEGER PRIMARY KEY,
  tenant_id   TEXT NOT NULL,
  kind        TEXT NOT NULL,
  payload     TEXT NOT NULL DEFAULT '{}',
  dedupe_key  TEXT,                    -- at most one queued job per key
  status      TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','running','done','failed')),
  attempts    INTEGER NOT NULL DEFAULT 0,
  run_after   INTEGER NOT NULL,        -- epoch ms
  last_error  TEXT,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX jobs_ready ON jobs(status, kind, run_after, id);
CREATE UNIQUE INDEX jobs_dedupe ON jobs(dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL;

-- ---------------------------------------------------------------- embeddings
-- The live embedding space (model id + dimension) and which vec0 table holds it.
CREATE TABLE embedding_spaces (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  model_id   TEXT NOT NULL,
  dimension  INTEGER NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

-- ---------------------------------------------------------------- graph health
-- Counters maintained by triggers so GET /graph-health reads one row, not a scan.
CREATE TABLE tenant_stats (
  tenant_id        TEXT PRIMARY KEY,
  total_nodes      INTEGER NOT NULL DEFAULT 0,
  validated_nodes  INTEGER NOT NULL DEFAULT 0,
  total_captures   INTEGER NOT NULL DEFAULT 0,
  pending_captures INTEGER NOT NULL DEFAULT 0,
  total_links      INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TRIGGER tenants_stats_ai AFTER INSERT ON tenants BEGIN
  INSERT INTO tenant_stats(tenant_id) VALUES (NEW.id);
END;

CREATE TRIGGER nodes_stats_ai AFTER INSERT ON nodes BEGIN
  UPDATE tenant_stats SET total_nodes = total_nodes + 1,
    validated_nodes = validated_nodes + (NEW.status = 'validated')
  WHERE tenant_id = NEW.tenant_id;
END;
CREATE TRIGGER nodes_stats_ad AFTER DELETE ON nodes BEGIN
  UPDATE tenant_stats SET total_nodes = total_nodes - 1,
    validated_nodes = validated_nodes - (OLD.status = 'validated')
  WHERE tenant_id = OLD.tenant_id;
END;
CREATE TRIGGER nodes_stats_au AFTER UPDATE OF status ON nodes WHEN OLD.status IS NOT NEW.status BEGIN
  UPDATE tenant_stats SET validated_nodes = validated_nodes - (OLD.status = 'validated') + (NEW.status = 'validated')
  WHERE tenant_id = NEW.tenant_id;
END;

-- A link and its reverse are two rows and count as one link.
CREATE TRIGGER links_stats_ai AFTER INSERT ON links WHEN NEW.source_id < NEW.target_id BEGIN
  UPDATE tenant_stats SET total_links = total_links + 1 WHERE tenant_id = NEW.tenant_id;
END;
CREATE TRIGGER links_stats_ad AFTER DELETE ON links WHEN OLD.source_id < OLD.target_id BEGIN
  UPDATE tenant_stats SET total_links = total_links - 1 WHERE tenant_id = OLD.tenant_id;
END;

CREATE TRIGGER captures_stats_ai AFTER INSERT ON captures BEGIN
  UPDATE tenant_stats SET total_captures = total_captures + 1,
    pending_captures = pending_captures + (NEW.status IN ('pending','processing'))
  WHERE tenant_id = NEW.tenant_id;
END;
CREATE TRIGGER captures_stats_ad AFTER DELETE ON captures BEGIN
  UPDATE tenant_stats SET total_captures = total_captures - 1,
    pending_captures = pending_captures - (OLD.status IN ('pending','processing'))
  WHERE tenant_id = OLD.tenant_id;
END;
CREATE TRIGGER captures_stats_au AFTER UPDATE OF status ON captures WHEN OLD.status IS NOT NEW.status BEGIN
  UPDATE tenant_stats SET pending_captures = pending_captures
    - (OLD.status IN ('pending','processing')) + (NEW.status IN ('pending','processing'))
  WHERE tenant_id = NEW.tenant_id;
END;
