// The repository scenarios that also run on PostgreSQL (test/postgres/pg-db.test.ts), here on
// SQLite: one behaviour, two backends.
import { SqliteError } from 'better-sqlite3';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { VectorsRepo } from '../../src/repos/vectors.repo.js';
import { closeDatabase, openDatabase, type Db } from '../../src/db/open.js';
import { apiKeysScenario, graphHealthScenario, importsAndCalibrationsScenario, jobsScenario, linksAndTagsScenario, nodesScenario, paraScenario, tenantsScenario, tokensScenario, transactionScenario, vectorsScenario } from '../helpers/repo-scenarios.js';

describe('repository scenarios on SQLite', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => closeDatabase(db));

  it('TenantsRepo: insert, find, count, list, install settings kept once', () => tenantsScenario(db, SqliteError));
  it('ApiKeysRepo: named parameters, a BLOB back as a Buffer, changes counted', () => apiKeysScenario(db));
  it('db.transaction() is all or nothing, nested calls are savepoints', () => transactionScenario(db, SqliteError));
  it('JobsRepo: one queued job per dedupe key, claims by kind in batches, retries and requeues', () => jobsScenario(db));
  it('TokensRepo: magic links and refresh tokens by HMAC, used once, families revoked', () => tokensScenario(db));
  it('LinksRepo and TagsRepo: typed links upserted per tenant, related nodes, edges; tag counts and nodes by tag', () => linksAndTagsScenario(db));
  it('ParaRepo: items in PARA order, slugs, archive, automatic and user filings, orphans, rate limits', () => paraScenario(db));
  it('ImportsRepo and CalibrationsRepo: import keys by path and hash, runs interrupted at start-up; one calibration per model', () => importsAndCalibrationsScenario(db));
  it('NodesRepo: insert with the keyword index, get by id/seq, list with every filter, PARA of a node, update, delete', () => nodesScenario(db));
  it('GraphHealthRepo and HealthHistoryRepo: counters kept by the engine\'s triggers, daily snapshots, the inbox\'s counts and lists', () => graphHealthScenario(db));
  it('VectorsRepo: space, upsert and replace, delete, get, pages through 2,500 vectors, count, own tenant only, exact k-NN, a new dimension', () => vectorsScenario(db, (d) => new VectorsRepo(d)));
  it('VectorsRepo without vec0\'s chunk reads: the same answers', () => vectorsScenario(db, (d) => new VectorsRepo(d, { chunks: false })));
});
