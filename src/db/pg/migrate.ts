// Schema versions on PostgreSQL, numbered like src/db/migrate.ts (1 = schema.pg.sql, then
// 2 relevance, 3 oidc, 4 imports, 5 revoked-family index, 6 OAuth server, 7 health history,
// 8 capture images, 9 job leases, 10 vector notifications, 11 node dates). The version lives in a one-row
// table (PostgreSQL has no user_version); an advisory lock lets several processes start at
// once against one database: the first migrates, the others wait and find nothing to do.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../paths.js';
import type { PgClient } from './connect.js';
import { PG_CAPTURE_IMAGES, PG_HEALTH_HISTORY, PG_JOB_LEASES, PG_IMPORTS, PG_NODE_DATES, PG_VECTOR_NOTIFY, PG_OAUTH_SERVER, PG_OIDC, PG_RELEVANCE, PG_REVOKED_FAMILY } from './migrations.js';
import { PG_WEBHOOKS_SCHEMA } from '../migrations/webhooks-schema.js';
import { PG_FEEDS_SCHEMA } from '../migrations/feeds-schema.js';
import { PG_RULES_SCHEMA } from '../migrations/rules-schema.js';
import { PG_HIGHLIGHTS } from './highlights-schema.pg.js';
import { PG_CAPTURE_SNAPSHOTS } from './capture-snapshots-schema.pg.js';
import { PG_OPERATORS_SCHEMA } from '../migrations/operators-schema.js';
import { PG_NODE_PASSAGES } from '../migrations/node-passages.js';
import { PG_SEMANTIC_GATES } from '../migrations/semantic-gates.js';
import { PG_KEYWORD_CHANGES } from './keyword-changes.pg.js';

export const pgSchemaPath = () => join(packageRoot(), 'src', 'db', 'pg', 'schema.pg.sql');

const STEPS: Array<() => string> = [() => readFileSync(pgSchemaPath(), 'utf8'), () => PG_RELEVANCE, () => PG_OIDC, () => PG_IMPORTS, () => PG_REVOKED_FAMILY, () => PG_OAUTH_SERVER, () => PG_HEALTH_HISTORY, () => PG_CAPTURE_IMAGES, () => PG_JOB_LEASES, () => PG_VECTOR_NOTIFY, () => PG_NODE_DATES, () => PG_WEBHOOKS_SCHEMA, () => PG_FEEDS_SCHEMA, () => PG_RULES_SCHEMA, () => PG_HIGHLIGHTS, () => PG_CAPTURE_SNAPSHOTS, () => PG_OPERATORS_SCHEMA, () => PG_NODE_PASSAGES, () => PG_SEMANTIC_GATES, () => PG_KEYWORD_CHANGES];

export const PG_SCHEMA_VERSION = STEPS.length;
const LOCK_KEY = 0x52685a6d; // "RhZm"

/** The schema version of the database (0: never migrated). */
export async function pgSchemaVersion(client: PgClient): Promise<number> {
  const t = await client.query("SELECT to_regclass('rhizome_schema') IS NOT NULL AS present");
  if (!t.rows[0].present) return 0;
  const r = await client.query('SELECT version FROM rhizome_schema WHERE id = 1');
  return r.rows[0]?.version ?? 0;
}

/**
 * Brings the database to PG_SCHEMA_VERSION. Each step runs in its own transaction, unless
 * `inTransaction`: then the caller's transaction holds them all (rhizome migrate creates the
 * schema and copies the data in one transaction, so a failure leaves nothing behind).
 */
export async function migratePg(client: PgClient, opts: { inTransaction?: boolean } = {}): Promise<void> {
  for (;;) {
    if (!opts.inTransaction) await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      await client.query('CREATE TABLE IF NOT EXISTS rhizome_schema (id int PRIMARY KEY CHECK (id = 1), version int NOT NULL)');
      const v = await pgSchemaVersion(client);
      if (v > PG_SCHEMA_VERSION) {
        throw new Error(`database schema version ${v} is newer than this Rhizome (${PG_SCHEMA_VERSION}); upgrade Rhizome`);
      }
      if (v === PG_SCHEMA_VERSION) {
        if (!opts.inTransaction) await client.query('COMMIT');
        return;
      }
      await client.query(STEPS[v]());
      await client.query('INSERT INTO rhizome_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version', [v + 1]);
      if (!opts.inTransaction) await client.query('COMMIT');
    } catch (e) {
      if (!opts.inTransaction) await client.query('ROLLBACK').catch(() => {});
      throw e;
    }
  }
}
