// The repository scenarios that also run on PostgreSQL (test/postgres/pg-db.test.ts), here on
// SQLite: one behaviour, two backends.
import { SqliteError } from 'better-sqlite3';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { VectorsRepo } from '../../src/repos/vectors.repo.js';
import { fts5NodeKeywords } from '../../src/repos/keyword-index.repo.js';
import { openDatabase } from '../../src/db/open.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { outboxScenario } from '../helpers/outbox-scenario.js';
import { apiKeysScenario, graphHealthScenario, importsAndCalibrationsScenario, jobsScenario, linksAndTagsScenario, nodesScenario, paraScenario, tenantsScenario, laterScenario, tokensScenario, transactionScenario, vectorsScenario } from '../helpers/repo-scenarios.js';

describe('repository scenarios on SQLite', () => {
  let db: SqliteStore;
  beforeEach(() => {
    db = new SqliteStore(openDatabase(':memory:'));
  });
  afterEach(async () => await db.close());

  it('TenantsRepo: insert, find, count, list, install settings kept once', async () => await tenantsScenario(db, SqliteError));
  it('ApiKeysRepo: named parameters, a BLOB back as a Buffer, changes counted', async () => await apiKeysScenario(db));
  it('db.transaction() is all or nothing, nested calls are savepoints', async () => await transactionScenario(db, SqliteError));
  it('later(): a write sent with the next statement is part of its transaction, its failure fails it', async () => await laterScenario(db, SqliteError));
  it('WebhookOutbox: one delivery and one job per subscribed webhook, picked in SQL; none for another event, a rollback or another tenant', async () => await outboxScenario(db));
  it('JobsRepo: one queued job per dedupe key, claims by kind in batches, retries and requeues', async () => await jobsScenario(db));
  it('TokensRepo: magic links and refresh tokens by HMAC, used once, families revoked', async () => await tokensScenario(db));
  it('LinksRepo and TagsRepo: typed links upserted per tenant, related nodes, edges; tag counts and nodes by tag', async () => await linksAndTagsScenario(db));
  it('ParaRepo: items in PARA order, slugs, archive, automatic and user filings, orphans, rate limits', async () => await paraScenario(db));
  it('ImportsRepo and CalibrationsRepo: import keys by path and hash, runs interrupted at start-up; one calibration per model', async () => await importsAndCalibrationsScenario(db));
  it('NodesRepo: insert with the keyword index, get by id/seq, list with every filter, PARA of a node, update, delete', async () => await nodesScenario(db, fts5NodeKeywords(db)));
  it('GraphHealthRepo and HealthHistoryRepo: counters kept by the engine\'s triggers, daily snapshots, the inbox\'s counts and lists', async () => await graphHealthScenario(db));
  it('VectorsRepo: space, upsert and replace, delete, get, pages through 2,500 vectors, count, own tenant only, exact k-NN, a new dimension', async () => await vectorsScenario(db, (d) => new VectorsRepo(d as SqliteStore)));
  it('VectorsRepo without vec0\'s chunk reads: the same answers', async () => await vectorsScenario(db, (d) => new VectorsRepo(d as SqliteStore, { chunks: false })));
});
