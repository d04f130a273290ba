// The keyword module on PostgreSQL (services/nodes/keyword-route.ts over
// repos/pg/keyword-source.pg.ts) ranks exactly as BM25 in SQL does (the engine's own scoring,
// test/helpers/engine-bm25.ts), and stays right when another process writes: two
// connections stand for two processes, each with its own kept postings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStore } from '../../src/db/store/pg-store.js';
import { NodesRepo, type NodeFilter, type NodeRow } from '../../src/repos/nodes.repo.js';
import { PgKeywordIndex } from '../../src/repos/pg/keyword-index.pg.js';
import { PgKeywordSource } from '../../src/repos/pg/keyword-source.pg.js';
import { KeywordRoute } from '../../src/services/nodes/keyword-route.js';
import { contentTerms } from '../../src/search/fts-query.js';
import { quoteTerm } from '../../src/search/text.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';
import { engineTop, tiedOrder } from '../helpers/engine-bm25.js';

const NOW = '2026-01-01T00:00:00.000Z';
const TENANTS = ['ten_a', 'ten_b'];

function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
}

interface Proc {
  conn: PgStore;
  nodes: NodesRepo;
  search: KeywordRoute;
}

function proc(url: string): Proc {
  const conn = new PgStore(url);
  const nodes = new NodesRepo(conn, new PgKeywordIndex(conn));
  return { conn, nodes, search: new KeywordRoute(new PgKeywordSource(conn), nodes) };
}

describePg('kept postings on PostgreSQL', () => {
  let db: TestPgDatabase;
  let a: Proc;
  let b: Proc;
  const rand = rng(11);
  // A skewed vocabulary: a few words most notes hold, a long tail of rare ones; stems meet
  // ("graft", "grafting", "grafted") and one word repeats within a note.
  const vocab = ['apple', 'tree', 'grafting', 'graft', 'grafted', 'note', 'garden', 'winter', 'prune', ...Array.from({ length: 300 }, (_, i) => `word${i}`)];
  const word = () => vocab[Math.floor(vocab.length * rand() ** 3)];
  const text = (n: number) => Array.from({ length: n }, word).join(' ');
  const queries = ['apple', 'apple tree', 'grafting garden note', 'word7 word150', 'apple apple tree', 'tree note garden apple winter', 'word299', 'nothingmatches', 'prune word3 word40 word41'];
  let next = 0;

  const add = async (p: Proc, tenant: string) =>
    await p.nodes.insert({ id: `nod_${next++}`, tenant_id: tenant, title: text(3), summary: text(6), body_markdown: text(25), tags: JSON.stringify([word()]), status: rand() < 0.5 ? 'raw' : 'validated', created_at: NOW, updated_at: NOW });

  /** Both routes for one query: kept postings, then the SQL reference, on the same process. */
  async function both(p: Proc, tenant: string, q: string, limit = 20, f: NodeFilter = {}) {
    const phrases = contentTerms(q).map(quoteTerm);
    const kept = await p.search.keywordTop(tenant, phrases, f, limit);
    const ref = await engineTop(p.conn, tenant, phrases, f, limit);
    return { kept, ref, keptStats: kept.stats, refStats: ref.stats };
  }

  async function expectSame(p: Proc, tenant: string, q: string, limit = 20, f: NodeFilter = {}) {
    const { kept, ref, keptStats, refStats } = await both(p, tenant, q, limit, f);
    expect(tiedOrder(kept.hits), q).toEqual(tiedOrder(ref.hits));
    kept.hits.forEach((h, i) => expect(h.score, q).toBeCloseTo(ref.hits[i].score, 9));
    expect(kept.total, q).toBe(ref.total);
    expect(keptStats, q).toEqual(refStats);
    return kept;
  }

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    a = proc(db.url);
    b = proc(db.url);
    for (const t of TENANTS) await a.conn.query('INSERT INTO tenants (id, name, created_at) VALUES ($1, $1, $2)', [t, NOW]);
    await a.conn.withTx(async () => {
      for (let i = 0; i < 400; i++) await add(a, 'ten_a');
      for (let i = 0; i < 150; i++) await add(a, 'ten_b');
    });
  });
  afterAll(async () => {
    await a?.conn.close();
    await b?.conn.close();
    await db?.drop();
  });

  it('ranks, scores and counts as the SQL ranking does, per tenant, at several page sizes', async () => {
    for (const t of TENANTS)
      for (const q of queries)
        for (const limit of [1, 10, 200, 1000]) await expectSame(a, t, q, limit);
    // The common word is in most notes: the kept route really ranked this one.
    expect((await both(a, 'ten_a', 'apple')).kept.total).toBeGreaterThan(200);
    expect(a.search.ranker.cache.get('ten_a')!.size).toBeGreaterThan(10);
  });

  it('reads a term from the database once, then from memory', async () => {
    await expectSame(a, 'ten_a', 'apple tree');
    const reads = a.search.ranker.reads;
    for (let i = 0; i < 3; i++) await expectSame(a, 'ten_a', 'apple tree');
    expect(a.search.ranker.reads).toBe(reads);
  });

  it('follows every write another process makes: inserts, updates that keep df, deletes, other tenants', async () => {
    for (const q of queries) await expectSame(a, 'ten_a', q);
    const readsBefore = a.search.ranker.reads;
    // Another process adds notes that hold the common words.
    await b.conn.withTx(async () => {
      for (let i = 0; i < 5; i++) await add(b, 'ten_a');
    });
    for (const q of queries) await expectSame(a, 'ten_a', q);
    // Taken in from the change log: no term's postings read again.
    expect(a.search.ranker.reads).toBe(readsBefore);

    // An update that keeps the node's set of terms (so no df changes) but moves 'apple'
    // from the body to the title: its weighted frequency and the node's length change.
    const row = (await b.conn.query<NodeRow>("SELECT * FROM nodes WHERE tenant_id = 'ten_a' AND body_markdown LIKE '%apple%' AND title NOT LIKE '%apple%' ORDER BY seq LIMIT 1")).rows[0];
    const dfBefore = (await a.search.termStats('ten_a', ['"apple"'])).df;
    const before = (await both(a, 'ten_a', 'apple', 1000)).kept.hits.find((h) => h.seq === row.seq)!.score;
    // In one transaction, so a write path that nets each term's df change per transaction
    // (and skips a term whose change nets to zero) would fail here.
    await b.conn.withTx(async () => await b.nodes.update({ ...row, title: `${row.title} apple apple`, body_markdown: `${row.body_markdown} zzzz` }, true));
    const after = (await expectSame(a, 'ten_a', 'apple', 1000)).hits.find((h) => h.seq === row.seq)!.score;
    expect(after).toBeGreaterThan(before);
    expect((await a.search.termStats('ten_a', ['"apple"'])).df).toEqual(dfBefore);

    // Deletes, in another process.
    for (const r of (await b.conn.query<NodeRow>("SELECT * FROM nodes WHERE tenant_id = 'ten_a' ORDER BY seq LIMIT 7")).rows) await b.nodes.delete('ten_a', r);
    for (const q of queries) await expectSame(a, 'ten_a', q);

    // Another tenant's writes leave this tenant's kept postings in place (and right).
    const reads = a.search.ranker.reads;
    await b.conn.withTx(async () => {
      for (let i = 0; i < 5; i++) await add(b, 'ten_b');
    });
    await expectSame(a, 'ten_a', 'apple tree');
    expect(a.search.ranker.reads).toBe(reads);
    for (const q of queries) await expectSame(a, 'ten_b', q);
  });

  it('takes in a transaction that commits after a later one', async () => {
    // One tenant's keyword writes queue on its statistics row, so the later transaction
    // writes another tenant: what a read takes in is bounded by the oldest transaction
    // running, whatever tenant it writes.
    const c = proc(db.url);
    let release = () => {};
    const latch = new Promise<void>((r) => (release = r));
    try {
      for (const t of TENANTS) for (const q of queries) await expectSame(a, t, q);
      let written = () => {};
      const wrote = new Promise<void>((r) => (written = r));
      // b writes first and stays open; c writes after it and commits first.
      const slow = b.conn.withTx(async () => {
        for (let i = 0; i < 3; i++) await add(b, 'ten_a');
        written();
        await latch;
      });
      await wrote;
      await c.conn.withTx(async () => {
        for (let i = 0; i < 3; i++) await add(c, 'ten_b');
      });
      for (const t of TENANTS) for (const q of queries) await expectSame(a, t, q);
      release();
      await slow;
      for (const t of TENANTS) for (const q of queries) await expectSame(a, t, q);
    } finally {
      release();
      await c.conn.close();
    }
  });

  it('takes each change in once, while a long transaction holds the oldest running id back (a backup)', async () => {
    const source = (a.search as unknown as { source: PgKeywordSource }).source;
    const taken: number[] = [];
    const read = source.read.bind(source);
    source.read = async (...args: Parameters<PgKeywordSource['read']>) => {
      const r = await read(...args);
      taken.push(r.changed?.nodes.length ?? 0);
      return r;
    };
    const holder = await db.client();
    try {
      await expectSame(a, 'ten_a', 'apple tree');
      await holder.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await holder.query('SELECT pg_current_xact_id()');
      for (let i = 0; i < 4; i++) await add(b, 'ten_a');
      taken.length = 0;
      await expectSame(a, 'ten_a', 'apple tree');
      await expectSame(a, 'ten_a', 'apple tree');
      await expectSame(a, 'ten_a', 'garden');
      expect(taken).toEqual([4, 0, 0]);
      await holder.query('COMMIT');
      for (const q of queries) await expectSame(a, 'ten_a', q);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
      source.read = read;
    }
  });

  it('reads a tenant afresh when it was not read for a while (its changes may be trimmed), and trims the log', async () => {
    const source = (a.search as unknown as { source: PgKeywordSource }).source;
    await expectSame(a, 'ten_a', 'apple tree');
    const reads = a.search.ranker.reads;
    source.freshAfterMs = 0;
    await new Promise((r) => setTimeout(r, 5));
    try {
      await expectSame(a, 'ten_a', 'apple tree');
      expect(a.search.ranker.reads).toBeGreaterThan(reads);
    } finally {
      source.freshAfterMs = 5 * 60_000;
    }
    for (const q of queries) await expectSame(a, 'ten_a', q);
    // Rows written a quarter of an hour ago, of ended transactions, go at the next trim.
    await b.conn.query("UPDATE keyword_changes SET at = now() - interval '16 minutes'");
    await add(b, 'ten_a');
    (source as unknown as { lastTrim: number }).lastTrim = 0;
    await expectSame(a, 'ten_a', 'apple tree');
    await source.trimming;
    expect(Number((await b.conn.query<{ n: string }>('SELECT count(*) AS n FROM keyword_changes')).rows[0].n)).toBe(1);
    for (const q of queries) await expectSame(a, 'ten_a', q);
  });

  it('inside a transaction, ranks in SQL and sees its own uncommitted writes', async () => {
    const phrases = ['"grafting"'];
    await expectSame(a, 'ten_a', 'grafting');
    const outside = (await a.search.keywordTop('ten_a', phrases, {}, 1000)).total!;
    const tx = async () =>
      await a.conn.withTx(async () => {
      for (let i = 0; i < 3; i++) await a.nodes.insert({ id: `nod_tx_${i}`, tenant_id: 'ten_a', title: 'grafting grafting', summary: '', body_markdown: 'grafting', tags: '[]', status: 'raw', created_at: NOW, updated_at: NOW });
      const inside = await a.search.keywordTop('ten_a', phrases, {}, 1000);
      expect(inside.total).toBe(outside + 3);
      expect(inside.hits.slice(0, 3).every((h) => h.seq > 0)).toBe(true);
      throw new Error('roll back');
    });
    await expect(tx()).rejects.toThrow('roll back');
    expect((await expectSame(a, 'ten_a', 'grafting', 1000)).total).toBe(outside);
  });

  describe('filters', () => {
    it('rank in SQL under the filters, as before', async () => {
      for (const q of queries) {
        await expectSame(a, 'ten_a', q, 20, { status: 'validated' });
        await expectSame(a, 'ten_a', q, 20, { tags: ['apple'] });
      }
    });
  });
});
