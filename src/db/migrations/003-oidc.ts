// Step 2: identity-provider sign-in. Flow state (authorization code flows and device
// grants) lives here for minutes, is consumed once, and names no tenant; a hand-off code
// is the one-time ticket the dashboard or CLI exchanges for Rhizome's own tokens.
import type Database from 'better-sqlite3';

export function oidcSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE oidc_flows (
      id                 TEXT PRIMARY KEY,
      handle_hmac        BLOB NOT NULL UNIQUE,    -- HMAC of the state (code flow) or device handle
      provider           TEXT NOT NULL,
      kind               TEXT NOT NULL CHECK (kind IN ('web','cli','device')),
      nonce              TEXT,
      code_verifier      TEXT,
      device_code        TEXT,
      return_to          TEXT NOT NULL DEFAULT '', -- dashboard route, or the CLI's loopback redirect
      client_state       TEXT,                    -- the CLI's own state, echoed to its loopback
      handoff_challenge  TEXT,                    -- S256 challenge the hand-off exchange must answer
      created_at         INTEGER NOT NULL,
      expires_at         INTEGER NOT NULL,
      used_at            INTEGER
    ) STRICT;
    CREATE INDEX oidc_flows_expiry ON oidc_flows(expires_at);

    CREATE TABLE oidc_handoffs (
      code_hmac          BLOB PRIMARY KEY,
      tenant_id          TEXT NOT NULL REFERENCES tenants(id),
      user_id            TEXT NOT NULL REFERENCES users(id),
      provider           TEXT NOT NULL,
      challenge          TEXT,
      expires_at         INTEGER NOT NULL,
      used_at            INTEGER
    ) STRICT;
    CREATE INDEX oidc_handoffs_expiry ON oidc_handoffs(expires_at);
  `);
}
