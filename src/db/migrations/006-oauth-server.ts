// Rhizome's own OAuth authorization server (for remote MCP clients): dynamically registered
// public clients (per installation: registration happens before anyone signs in), pending
// authorization requests (bound to the browser that started them), and one-time
// authorization codes. Refresh-token families remember the client they were issued to, so
// the token endpoint rotates a token only for that client.
import type Database from 'better-sqlite3';

export function oauthServerSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE oauth_clients (
      client_id          TEXT PRIMARY KEY,
      client_name        TEXT NOT NULL,
      client_uri         TEXT,
      redirect_uris      TEXT NOT NULL,            -- JSON array of exact URIs
      software_id        TEXT,
      software_version   TEXT,
      created_at         INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE oauth_requests (
      handle_hmac        BLOB PRIMARY KEY,         -- HMAC of the request handle in the pages' URLs
      browser_hmac       BLOB NOT NULL,            -- HMAC of the cookie of the browser that started it
      client_id          TEXT NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
      redirect_uri       TEXT NOT NULL,
      state              TEXT,
      code_challenge     TEXT NOT NULL,            -- S256
      resource           TEXT NOT NULL,
      scope              TEXT,
      oidc_verifier      TEXT,                     -- PKCE verifier of an identity-provider hand-off
      tenant_id          TEXT REFERENCES tenants(id),
      user_id            TEXT REFERENCES users(id),
      created_at         INTEGER NOT NULL,
      expires_at         INTEGER NOT NULL,
      decided_at         INTEGER
    ) STRICT;
    CREATE INDEX oauth_requests_expiry ON oauth_requests(expires_at);

    CREATE TABLE oauth_codes (
      code_hmac          BLOB PRIMARY KEY,
      tenant_id          TEXT NOT NULL REFERENCES tenants(id),
      user_id            TEXT NOT NULL REFERENCES users(id),
      client_id          TEXT NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
      redirect_uri       TEXT NOT NULL,
      code_challenge     TEXT NOT NULL,
      resource           TEXT NOT NULL,
      expires_at         INTEGER NOT NULL,
      used_at            INTEGER,
      family_id          TEXT                      -- the session it became (revoked if the code is replayed)
    ) STRICT;
    CREATE INDEX oauth_codes_expiry ON oauth_codes(expires_at);

    ALTER TABLE refresh_tokens ADD COLUMN client_id TEXT;
  `);
}
