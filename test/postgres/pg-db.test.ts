// SQLite's repositories, unchanged, on PostgreSQL through PgDb (better-sqlite3's API over
// the synchronous bridge, SQL translated), against the migrated PostgreSQL schema: the
// scenarios of test/helpers/repo-scenarios.ts, which also run on SQLite.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/open.js';
import { PgDb } from '../../src/db/pg/pg-db.js';
import { PgQueryError, PgSync } from '../../src/db/pg/sync-client.js';
import { PgKeywordIndex } from '../../src/repos/pg/keyword-index.pg.js';
import { apiKeysScenario, graphHealthScenario, importsAndCalibrationsScenario, jobsScenario, linksAndTagsScenario, nodesScenario, paraScenario, tenantsScenario, tokensScenario, transactionScenario } from '../helpers/repo-scenarios.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

describePg('PgDb: repositories written for SQLite, on PostgreSQL', () => {
  let pgdb: TestPgDatabase;
  let db: PgDb;
  beforeEach(async () => {
    pgdb = await createTestDatabase({ migrated: true });
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
  it('NodesRepo: insert with the keyword index, get by id/seq, list with every filter, PARA of a node, update, delete', () => {
    const keywords = new PgKeywordIndex(db.conn);
    nodesScenario(db as unknown as Db, keywords);
    // The keyword index followed the writes: the retitled node is found by its new word, the deleted one is gone.
    const tenant = 'ten_a';
    expect(keywords.search(tenant, 'mycorrhizal', 10).map((h) => h.seq)).toEqual([db.conn.query<{ seq: number }>("SELECT seq FROM nodes WHERE id = 'nod_1'").rows[0].seq]);
    expect(keywords.search(tenant, 'rivers', 10)).toEqual([]);
  });
  it('GraphHealthRepo and HealthHistoryRepo: counters kept by the engine\'s triggers, daily snapshots, the inbox\'s counts and lists', () => graphHealthScenario(db as unknown as Db));
});
