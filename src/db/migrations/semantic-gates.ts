// Each tenant's semantic gate (search/tenant-gate.ts), kept once measured: the probes (a k-NN
// per calibration query) run once per tenant and model, by whichever process first has its
// index in memory, and every process reads the row instead of measuring again — a cold
// tenant's first search by meaning reads one row. Derived data: measured again when the
// tenant's note count has moved by a tenth, or for another model; never copied by
// `rhizome migrate`. Idempotent.
import type Database from 'better-sqlite3';

export function semanticGatesSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS semantic_gates (
      tenant_id   TEXT PRIMARY KEY REFERENCES tenants(id),
      model_id    TEXT NOT NULL,
      notes       INTEGER NOT NULL,
      gate        TEXT NOT NULL,
      measured_at TEXT NOT NULL
    ) STRICT;
  `);
}

/** The same step on PostgreSQL. */
export const PG_SEMANTIC_GATES = `
CREATE TABLE semantic_gates (
  tenant_id   text PRIMARY KEY REFERENCES tenants(id),
  model_id    text NOT NULL,
  notes       bigint NOT NULL,
  gate        text NOT NULL,
  measured_at text NOT NULL
);
`;
