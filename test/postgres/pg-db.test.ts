// SQLite's repositories, unchanged, on PostgreSQL through PgDb (better-sqlite3's API over
// the synchronous bridge, SQL translated), against the migrated PostgreSQL schema: the
// scenarios of test/helpers/repo-scenarios.ts, which also run on SQLite.
import { afterEach, beforeEach, it } from 'vitest';
import type { Db } from '../../src/db/open.js';
import { migratePg } from '../../src/db/pg/migrate.js';
import { PgDb } from '../../src/db/pg/pg-db.js';
import { PgQueryError, PgSync } from '../../src/db/pg/sync-client.js';
import { apiKeysScenario, importsAndCalibrationsScenario, jobsScenario, linksAndTagsScenario, paraScenario, tenantsScenario, tokensScenario, transactionScenario } from '../helpers/repo-scenarios.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

describePg('PgDb: repositories written for SQLite, on PostgreSQL', () => {
  let pgdb: TestPgDatabase;
  let db: PgDb;
  beforeEach(async () => {
    pgdb = await createTestDatabase();
    await migratePg(await pgdb.client());
    db = new PgDb(new PgSync(pgdb.url));
  });
  afterEach(async () => {
    db.close();
    await pgdb.drop();
  });

  it('TenantsRepo: insert, find, count, list, install settings kept once', () => tenantsScenario(db as unknown as Db, PgQueryError));
  it('ApiKeysRepo: named parameters, a BLOB back as a Buffer, changes counted', () => apiKeysScenario(db as unknown as Db));
  it('db.transaction() is all or nothing, nested calls are savepoints', () => transactionScenario(db as unknown as Db, PgQueryError));
  it('JobsRepo: one queued job per dedupe key, claims by kind in batches, retries and requeues', () => jobsScenario(db as unknown as Db));
  it('TokensRepo: magic links and refresh tokens by HMAC, used once, families revoked', () => tokensScenario(db as unknown as Db));
  it('LinksRepo and TagsRepo: typed links upserted per tenant, related nodes, edges; tag counts and nodes by tag', () => linksAndTagsScenario(db as unknown as Db));
  it('ParaRepo: items in PARA order, slugs, archive, automatic and user filings, orphans, rate limits', () => paraScenario(db as unknown as Db));
  it('ImportsRepo and CalibrationsRepo: import keys by path and hash, runs interrupted at start-up; one calibration per model', () => importsAndCalibrationsScenario(db as unknown as Db));
});
