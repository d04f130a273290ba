// PostgreSQL steps 2..9, numbered and meaning what src/db/migrate.ts's steps mean, so a
// database at version N has the same tables on both backends. Step 1 is schema.pg.sql.

/** Step 2 (relevance): calibrations, PARA rejections, and the per-tenant keyword index. */
export const PG_RELEVANCE = `
CREATE TABLE embedding_calibrations (
  model_id    text PRIMARY KEY,
  set_hash    text NOT NULL,
  calibration text NOT NULL,
  computed_at text NOT NULL
);

CREATE TABLE para_rejections (
  tenant_id    text NOT NULL,
  node_id      text NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  para_item_id text NOT NULL REFERENCES para_items(id) ON DELETE CASCADE,
  created_at   text NOT NULL,
  PRIMARY KEY (node_id, para_item_id)
);
CREATE INDEX para_rejections_tenant ON para_rejections(tenant_id, node_id);

-- SQLite keeps one FTS5 table per tenant so BM25's statistics are the tenant's own. Here:
-- one row per node with its pre-stemmed lexemes (src/search/lexemes.ts, the 'simple'
-- configuration is never asked to parse text), the column-weighted frequency of each
-- lexeme (FTS5's bm25 weights: title 4, summary 2, body 1, tags 3) and the node's length
-- in tokens; and per tenant the document frequencies, document count and total length,
-- maintained by triggers on every write. BM25 is computed in SQL (src/repos/pg/).
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE TABLE node_keywords (
  seq       bigint PRIMARY KEY,
  tenant_id text NOT NULL,
  terms     tsvector NOT NULL,
  tf        jsonb NOT NULL,
  len       integer NOT NULL
);
CREATE INDEX node_keywords_terms ON node_keywords USING gin (tenant_id, terms);
-- tf is read one key at a time: kept uncompressed so a lookup never inflates the whole map.
ALTER TABLE node_keywords ALTER COLUMN tf SET STORAGE EXTERNAL;

CREATE TABLE keyword_stats (
  tenant_id text PRIMARY KEY,
  docs      bigint NOT NULL,
  total_len bigint NOT NULL
);
CREATE TABLE keyword_terms (
  tenant_id text NOT NULL,
  term      text NOT NULL,
  df        bigint NOT NULL,
  PRIMARY KEY (tenant_id, term)
) WITH (fillfactor = 70); -- df changes on every write: room on the page keeps the update HOT

-- The tenant's stats row is locked first, so one tenant's keyword writes queue behind each
-- other (no deadlock on term rows) and never wait on another tenant's.
CREATE FUNCTION rz_keywords_stats() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO keyword_stats AS s (tenant_id, docs, total_len) VALUES (OLD.tenant_id, -1, -OLD.len)
      ON CONFLICT (tenant_id) DO UPDATE SET docs = s.docs - 1, total_len = s.total_len - OLD.len;
    INSERT INTO keyword_terms AS k (tenant_id, term, df)
      SELECT OLD.tenant_id, t, -1 FROM jsonb_object_keys(OLD.tf) t ORDER BY t COLLATE "C"
      ON CONFLICT (tenant_id, term) DO UPDATE SET df = k.df - 1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO keyword_stats AS s (tenant_id, docs, total_len) VALUES (NEW.tenant_id, 1, NEW.len)
      ON CONFLICT (tenant_id) DO UPDATE SET docs = s.docs + 1, total_len = s.total_len + NEW.len;
    INSERT INTO keyword_terms AS k (tenant_id, term, df)
      SELECT NEW.tenant_id, t, 1 FROM jsonb_object_keys(NEW.tf) t ORDER BY t COLLATE "C"
      ON CONFLICT (tenant_id, term) DO UPDATE SET df = k.df + 1;
  END IF;
  RETURN NULL;
END $fn$;
CREATE TRIGGER node_keywords_stats AFTER INSERT OR DELETE OR UPDATE ON node_keywords
  FOR EACH ROW EXECUTE FUNCTION rz_keywords_stats();
`;

/** Step 3: identity-provider sign-in state. */
export const PG_OIDC = `
CREATE TABLE oidc_flows (
  id                 text PRIMARY KEY,
  handle_hmac        bytea NOT NULL UNIQUE,
  provider           text NOT NULL,
  kind               text NOT NULL CHECK (kind IN ('web','cli','device')),
  nonce              text,
  code_verifier      text,
  device_code        text,
  return_to          text NOT NULL DEFAULT '',
  client_state       text,
  handoff_challenge  text,
  created_at         bigint NOT NULL,
  expires_at         bigint NOT NULL,
  used_at            bigint
);
CREATE INDEX oidc_flows_expiry ON oidc_flows(expires_at);

CREATE TABLE oidc_handoffs (
  code_hmac          bytea PRIMARY KEY,
  tenant_id          text NOT NULL REFERENCES tenants(id),
  user_id            text NOT NULL REFERENCES users(id),
  provider           text NOT NULL,
  challenge          text,
  expires_at         bigint NOT NULL,
  used_at            bigint
);
CREATE INDEX oidc_handoffs_expiry ON oidc_handoffs(expires_at);
`;

/** Step 4: imports and their keys; the URL index carries the newest-first order. */
export const PG_IMPORTS = `
CREATE TABLE import_keys (
  tenant_id    text NOT NULL REFERENCES tenants(id),
  key          text NOT NULL,
  node_id      text NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  content_hash text NOT NULL,
  updated_at   text NOT NULL,
  PRIMARY KEY (tenant_id, key)
);
CREATE INDEX import_keys_by_hash ON import_keys (tenant_id, content_hash);
CREATE TABLE imports (
  id          text PRIMARY KEY,
  tenant_id   text NOT NULL REFERENCES tenants(id),
  kind        text NOT NULL CHECK (kind IN ('markdown', 'bookmarks')),
  status      text NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'interrupted')),
  total       bigint NOT NULL DEFAULT 0,
  counts      text NOT NULL DEFAULT '{}',
  problems    text NOT NULL DEFAULT '[]',
  error       text,
  created_at  text NOT NULL,
  finished_at text
);
CREATE INDEX imports_by_tenant ON imports (tenant_id, created_at);
DROP INDEX captures_tenant_url;
CREATE INDEX captures_tenant_url ON captures (tenant_id, url_normalized, created_at DESC, id DESC);
`;

/** Step 5: the revoked-session-family lookup. */
export const PG_REVOKED_FAMILY =
  'CREATE INDEX IF NOT EXISTS refresh_tokens_revoked_family ON refresh_tokens(tenant_id, family_id) WHERE revoked_at IS NOT NULL';

/** Step 6: Rhizome's own OAuth authorization server (clients, pending requests, codes). */
export const PG_OAUTH_SERVER = `
CREATE TABLE oauth_clients (
  client_id          text PRIMARY KEY,
  client_name        text NOT NULL,
  client_uri         text,
  redirect_uris      text NOT NULL,
  software_id        text,
  software_version   text,
  created_at         bigint NOT NULL
);

CREATE TABLE oauth_requests (
  handle_hmac        bytea PRIMARY KEY,
  browser_hmac       bytea NOT NULL,
  client_id          text NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  redirect_uri       text NOT NULL,
  state              text,
  code_challenge     text NOT NULL,
  resource           text NOT NULL,
  scope              text,
  oidc_verifier      text,
  tenant_id          text REFERENCES tenants(id),
  user_id            text REFERENCES users(id),
  created_at         bigint NOT NULL,
  expires_at         bigint NOT NULL,
  decided_at         bigint
);
CREATE INDEX oauth_requests_expiry ON oauth_requests(expires_at);

CREATE TABLE oauth_codes (
  code_hmac          bytea PRIMARY KEY,
  tenant_id          text NOT NULL REFERENCES tenants(id),
  user_id            text NOT NULL REFERENCES users(id),
  client_id          text NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  redirect_uri       text NOT NULL,
  code_challenge     text NOT NULL,
  resource           text NOT NULL,
  expires_at         bigint NOT NULL,
  used_at            bigint,
  family_id          text
);
CREATE INDEX oauth_codes_expiry ON oauth_codes(expires_at);

ALTER TABLE refresh_tokens ADD COLUMN client_id text;
`;

/** Step 7: the dashboard's daily graph-health snapshots, one row per tenant and UTC day. */
export const PG_HEALTH_HISTORY = `
CREATE TABLE graph_health_daily (
  tenant_id       text NOT NULL REFERENCES tenants(id),
  day             text NOT NULL,
  total_nodes     bigint NOT NULL,
  validated_nodes bigint NOT NULL,
  total_links     bigint NOT NULL,
  total_captures  bigint NOT NULL,
  failed_captures bigint NOT NULL,
  stale_nodes     bigint NOT NULL,
  orphan_nodes    bigint NOT NULL,
  PRIMARY KEY (tenant_id, day)
);
`;

/** Step 8: Open Graph images and favicons kept with web captures. */
export const PG_CAPTURE_IMAGES = `
CREATE TABLE capture_images (
  capture_id text NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
  tenant_id  text NOT NULL,
  kind       text NOT NULL CHECK (kind IN ('image','favicon')),
  mime       text NOT NULL,
  bytes      bytea NOT NULL,
  PRIMARY KEY (capture_id, kind)
);
ALTER TABLE capture_images ALTER COLUMN bytes SET STORAGE EXTERNAL;
`;

/** Step 9 (job leases): which process holds a running job, and until when (epoch ms). */
export const PG_JOB_LEASES = `
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS locked_by text;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS locked_until bigint;
`;

/**
 * Step 10 (several processes): every committed write or delete of a node vector is announced
 * on the channel rhizome_vectors as '<tenant> <u|d> <seq> <node id>', so each process keeps
 * its in-memory index coherent (repos/pg/vector-listener.pg.ts). NOTIFY is sent on commit.
 * And the table where every process counts rate limits.
 */
export const PG_VECTOR_NOTIFY = `
CREATE FUNCTION rhizome_vector_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  PERFORM pg_notify('rhizome_vectors', r.tenant_id || ' ' || (CASE WHEN TG_OP = 'DELETE' THEN 'd' ELSE 'u' END) || ' ' || r.seq
    || ' ' || coalesce((SELECT n.id FROM nodes n WHERE n.seq = r.seq AND n.tenant_id = r.tenant_id), ''));
  RETURN NULL;
END $$;
CREATE TRIGGER node_vectors_notify AFTER INSERT OR UPDATE OR DELETE ON node_vectors
  FOR EACH ROW EXECUTE FUNCTION rhizome_vector_notify();
-- Rate limits every process shares (rate-limiter-flexible's RateLimiterPostgres layout; repos/limiters.ts).
CREATE TABLE rate_limiter (
  key    varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
`;

/** Step 11 (agent memory): when the thing a node describes happened; date-range reads by the node's date. */
export const PG_NODE_DATES = `
ALTER TABLE nodes ADD COLUMN IF NOT EXISTS occurred_at text;
ALTER TABLE nodes ADD COLUMN IF NOT EXISTS mentioned_dates text NOT NULL DEFAULT '[]';
CREATE INDEX IF NOT EXISTS nodes_tenant_date ON nodes(tenant_id, (coalesce(occurred_at, created_at)));
`;
