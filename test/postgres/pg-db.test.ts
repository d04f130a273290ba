// The repositories on PostgreSQL's asynchronous store (a pool), against the migrated
// PostgreSQL schema: the scenarios of test/helpers/repo-scenarios.ts, which also run on SQLite.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PgQueryError } from '../../src/db/pg/errors.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { PgKeywordIndex } from '../../src/repos/pg/keyword-index.pg.js';
import { queryLexemes } from '../../src/search/lexemes.js';
import { outboxScenario } from '../helpers/outbox-scenario.js';
import { apiKeysScenario, graphHealthScenario, importsAndCalibrationsScenario, jobsScenario, linksAndTagsScenario, nodesScenario, paraScenario, tenantsScenario, laterScenario, tokensScenario, transactionScenario } from '../helpers/repo-scenarios.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';
import { pgBm25 } from '../helpers/engine-bm25.js';

describePg('The repositories on the PostgreSQL store', () => {
  let pgdb: TestPgDatabase;
  let db: PgStore;
  beforeEach(async () => {
    pgdb = await createTestDatabase({ migrated: true });
    db = new PgStore(pgdb.url);
  });
  afterEach(async () => {
    await db.close();
    await pgdb.drop();
  });

  it('TenantsRepo: insert, find, count, list, install settings kept once', async () => await tenantsScenario(db, PgQueryError));
  it('ApiKeysRepo: named parameters, a BLOB back as a Buffer, changes counted', async () => await apiKeysScenario(db));
  it('db.transaction() is all or nothing, nested calls are savepoints', async () => await transactionScenario(db, PgQueryError));
  it('later(): a write sent with the next statement is part of its transaction, its failure fails it', async () => await laterScenario(db, PgQueryError));
  it('WebhookOutbox: one delivery and one job per subscribed webhook, picked in SQL; none for another event, a rollback or another tenant', async () => await outboxScenario(db));
  it('JobsRepo: one queued job per dedupe key, claims by kind in batches, retries and requeues', async () => await jobsScenario(db));
  it('TokensRepo: magic links and refresh tokens by HMAC, used once, families revoked', async () => await tokensScenario(db));
  it('LinksRepo and TagsRepo: typed links upserted per tenant, related nodes, edges; tag counts and nodes by tag', async () => await linksAndTagsScenario(db));
  it('ParaRepo: items in PARA order, slugs, archive, automatic and user filings, orphans, rate limits', async () => await paraScenario(db));
  it('ImportsRepo and CalibrationsRepo: import keys by path and hash, runs interrupted at start-up; one calibration per model', async () => await importsAndCalibrationsScenario(db));
  it('NodesRepo: insert with the keyword index, get by id/seq, list with every filter, PARA of a node, update, delete', async () => {
    const keywords = new PgKeywordIndex(db);
    await nodesScenario(db, keywords);
    // The keyword index followed the writes: the retitled node is found by its new word, the deleted one is gone.
    const tenant = 'ten_a';
    expect((await pgBm25(db, tenant, queryLexemes('mycorrhizal'), 10)).map((h) => h.seq)).toEqual([(await db.query<{ seq: number }>("SELECT seq FROM nodes WHERE id = 'nod_1'")).rows[0].seq]);
    expect(await pgBm25(db, tenant, queryLexemes('rivers'), 10)).toEqual([]);
  });
  it('GraphHealthRepo and HealthHistoryRepo: counters kept by the engine\'s triggers, daily snapshots, the inbox\'s counts and lists', async () => await graphHealthScenario(db));
});
