// Schema versioning with PRAGMA user_version: version 1 is schema.sql; later steps are
// appended to MIGRATIONS and run in order, each in its own transaction.
import type Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { schemaPath } from '../paths.js';
import { backupBeforeUpgrade } from './upgrade-backup.js';
import { migrateRelevance } from './migrations/002-relevance.js';
import { oidcSchema } from './migrations/003-oidc.js';
import { migrateImports } from './migrations/004-imports.js';
import { oauthServerSchema } from './migrations/006-oauth-server.js';
import { healthHistorySchema } from './migrations/007-health-history.js';
import { captureImagesSchema } from './migrations/008-capture-images.js';
import { jobLeasesSchema } from './migrations/009-job-leases.js';
import { nodeDatesSchema } from './migrations/node-dates.js';
import { webhooksSchema } from './migrations/webhooks-schema.js';
import { feedsSchema } from './migrations/feeds-schema.js';
import { rulesSchema } from './migrations/rules-schema.js';
import { highlightsSchema } from './migrations/highlights-schema.js';
import { captureSnapshotsSchema } from './migrations/capture-snapshots-schema.js';
import { operatorsSchema } from './migrations/operators-schema.js';
import { nodePassagesSchema } from './migrations/node-passages.js';
import { semanticGatesSchema } from './migrations/semantic-gates.js';

export type Step = (db: Database.Database) => void;

const MIGRATIONS: Step[] = [
  (db) => db.exec(readFileSync(schemaPath(), 'utf8')),
  migrateRelevance,
  oidcSchema,
  migrateImports,
  // Immediate revocation: every bearer request asks "is this session family revoked?" in
  // one lookup on this small partial index (only revoked rows are in it).
  (db) => db.exec('CREATE INDEX IF NOT EXISTS refresh_tokens_revoked_family ON refresh_tokens(tenant_id, family_id) WHERE revoked_at IS NOT NULL'),
  oauthServerSchema,
  // The dashboard's daily graph-health snapshots.
  healthHistorySchema,
  // Open Graph images and favicons kept with web captures.
  captureImagesSchema,
  // Job leases: several processes share the jobs table (locked_by, locked_until).
  jobLeasesSchema,
  // Step 10 is PostgreSQL's notification of vector writes to other processes (one process
  // holds a SQLite file): nothing to do here; the step keeps both engines' numbers equal.
  () => {},
  // When the thing a node describes happened (agent memory, imports of old notes).
  nodeDatesSchema,
  // Webhook subscriptions and the delivery outbox.
  webhooksSchema,
  // Feed subscriptions and the items seen.
  feedsSchema,
  // Rules and the log of what they did.
  rulesSchema,
  // Highlights on nodes (W3C Web Annotation selectors).
  highlightsSchema,
  // Archived copies of captured pages.
  captureSnapshotsSchema,
  // Tenant suspension and operator keys (the admin routes, /metrics).
  operatorsSchema,
  // Passages of long notes with their own vectors.
  nodePassagesSchema,
  // Each tenant's semantic gate, measured once and read by every process.
  semanticGatesSchema,
  // Step 20 is PostgreSQL's log of keyword changes, read by every process (src/db/pg/keyword-changes.pg.ts);
  // on SQLite the one process keeps its change log in memory: nothing to do here.
  () => {},
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Database.Database): void {
  runSteps(db, MIGRATIONS);
}

/** Runs the steps past the file's user_version, each in its own transaction (exported for tests). */
export function runSteps(db: Database.Database, steps: readonly Step[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > steps.length) {
    throw new Error(`database schema version ${current} is newer than this Rhizome (${steps.length}); upgrade Rhizome`);
  }
  // A file written by an older release is copied first (<data>/backups/, the last few kept).
  if (current > 0 && current < steps.length) backupBeforeUpgrade(db, current);
  for (let v = current; v < steps.length; v++) {
    db.transaction(() => {
      steps[v](db);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
