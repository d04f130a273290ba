// The one route a ranked keyword query takes (services/nodes/keyword-route.ts: the keyword
// module over the engine's postings) ranks, scores and counts exactly as the engine's own
// scoring does (test/helpers/engine-bm25.ts: FTS5's bm25() on SQLite, BM25 in SQL on
// PostgreSQL), before and after writes, across tenants, inside transactions, with its memory
// warmed, evicted and read again.
// In-process HTTP suite: it runs on both engines.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { contentTerms } from '../../src/search/fts-query.js';
import { quoteTerm } from '../../src/search/text.js';
import { iso } from '../../src/clock.js';
import { newId } from '../../src/ids.js';
import { KeywordWarmer } from '../../src/services/nodes/keyword-warmer.js';
import type { KeywordRoute } from '../../src/services/nodes/keyword-route.js';
import type { NodeFilter } from '../../src/repos/nodes.repo.js';
import { engineTop, tiedOrder } from '../helpers/engine-bm25.js';
import type { Fts5KeywordSource } from '../../src/repos/keyword-source.sqlite.js';
import { TEST_BACKEND } from '../helpers/test-database.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let t: TestApp;
let route: KeywordRoute;
beforeEach(async () => {
  t = await makeTestApp();
  route = t.s.keywordRoute!;
});
afterEach(() => t.close());

let r = 42;
const rand = () => (r = (r * 1103515245 + 12345) % 2147483648) / 2147483648;
/** "common" in every note (repeated in some), "shared" in 70 %, w0..w299 a few hundred each, rare words in a few. */
const words = (i: number) =>
  [
    'common',
    ...Array.from({ length: 5 + Math.floor(rand() * 60) }, () => (rand() < 0.05 ? 'common' : `w${Math.floor(rand() * 300)}`)),
    ...(rand() < 0.7 ? ['shared'] : []),
    ...(i % 97 === 0 ? ['zephyr'] : []),
    ...(i % 13 === 0 ? ['quokka'] : []),
  ].join(' ');

/** n notes; with `others`, each tenant's notes in turn, so their seqs interleave. */
async function seed(n = 1200, others: string[] = []): Promise<string[]> {
  const now = iso(Date.now());
  r = 42;
  const ids: string[] = [];
  const tenants = [t.tenantId, ...others];
  await t.s.db.withTx(async () => {
    for (let i = 0; i < n; i++) {
      const id = newId('nod');
      ids.push(id);
      const title = rand() < 0.2 ? `w${i % 300} shared common` : `note ${i}`;
      await t.s.repos.nodes.insert({ id, tenant_id: tenants[i % tenants.length], title, summary: '', body_markdown: words(i), tags: JSON.stringify(rand() < 0.1 ? ['w5'] : []), status: 'raw', created_at: now, updated_at: now });
    }
  });
  return ids;
}

const queries = ['common', 'shared', 'common shared', 'zephyr common', 'quokka shared common', 'w7', 'w7 w8', 'w5 w12 w200', 'w3 w3', 'notes noting note', 'w1 w2 w3 w4 shared', 'w9 zzz', 'zzz'];

/** The seqs in rank order (on PostgreSQL, near-ties by seq: tiedOrder). */
const order = (hits: { seq: number; score: number }[]) => (t.s.db.engine === 'sqlite' ? hits.map((h) => h.seq) : tiedOrder(hits));

/**
 * The module's top `pool` against the engine's. On PostgreSQL the sums differ in the last bit,
 * so nodes tied within 1e-9 across the cut may fall either way: the engine is read past the
 * cut, and the module's last tie group must be as many members of the engine's group there.
 */
function expectSameTop(top: { seq: number; score: number }[], engine: { seq: number; score: number }[], pool: number, what: string): void {
  if (t.s.db.engine === 'sqlite' || engine.length <= pool) return void expect(order(top), what).toEqual(order(engine.slice(0, pool)));
  const cut = engine[pool - 1].score;
  const near = (h: { score: number }) => Math.abs(h.score - cut) < 1e-9;
  const above = engine.slice(0, pool).filter((h) => !near(h));
  expect(order(top.slice(0, above.length)), what).toEqual(order(above));
  const tied = new Set(engine.filter(near).map((h) => h.seq));
  expect(top.length, what).toBe(pool);
  for (const h of top.slice(above.length)) expect(tied.has(h.seq), `${what}: ${h.seq} tied at the cut`).toBe(true);
}

async function expectSameAsEngine(label: string, tenantId = t.tenantId, f: NodeFilter = {}): Promise<void> {
  for (const pool of [1, 10, 200, 2000]) {
    for (const q of queries) {
      const phrases = contentTerms(q).map(quoteTerm);
      const engine = await engineTop(t.s.db, tenantId, phrases, f, t.s.db.engine === 'sqlite' ? pool : pool + 20);
      const top = await route.keywordTop(tenantId, phrases, f, pool);
      expectSameTop(top.hits, engine.hits, pool, `${label}: ${q} @${pool}`);
      // FTS5's own number on SQLite; PostgreSQL's statement divides in another order (the last bit).
      top.hits.forEach((h, i) => expect(h.score, `${label}: ${q}`).toBeCloseTo(engine.hits[i].score, 9));
      expect(top.total, `${label}: ${q}`).toBe(engine.total);
      expect(top.stats, `${label}: ${q}`).toEqual(engine.stats);
      expect(await route.termStats(tenantId, phrases), `${label}: ${q}`).toEqual(engine.stats);
    }
  }
}

describe('the ranked keyword route', () => {
  it('ranks, scores, counts and reads statistics as the engine does, cold and warm, before and after writes', async () => {
    const ids = await seed();
    await expectSameAsEngine('cold');
    const warmer = new KeywordWarmer(route.ranker, async () => [t.tenantId], t.log, { floor: 20 });
    expect(await warmer.keep(t.tenantId)).toBeGreaterThan(250);
    await expectSameAsEngine('warm');
    // One term alone, on SQLite: the very number FTS5 computes, not merely close.
    if (t.s.db.engine === 'sqlite') {
      const engine = await engineTop(t.s.db, t.tenantId, ['"w7"'], {}, 50);
      expect((await route.keywordTop(t.tenantId, ['"w7"'], {}, 50)).hits).toEqual(engine.hits);
    }
    const reads = route.ranker.reads;
    // New notes, edited and deleted old ones.
    for (let i = 0; i < 30; i++) await t.s.nodes.create(t.tenantId, { title: `w7 w8 new ${i}`, content: words(i) });
    for (const id of ids.slice(0, 40)) await t.s.nodes.update(t.tenantId, id, { content: `w7 w7 w3 ${words(1)}` });
    for (const id of ids.slice(40, 60)) await t.s.nodes.remove(t.tenantId, id);
    await expectSameAsEngine('after writes');
    // Both engines take the changed notes in from their change log: no postings read again.
    expect(route.ranker.reads).toBe(reads);
  });

  it.skipIf(TEST_BACKEND === 'postgres')('with its database in a file, SQLite reads lengths and warms in a reader thread, and every write made meanwhile is seen', async () => {
    await t.close();
    t = await makeTestApp({ dbPath: join(mkdtempSync(join(tmpdir(), 'rhizome-keyword-')), 'rhizome.db') });
    route = t.s.keywordRoute!;
    const ids = await seed();
    const source = t.s.repos.keywordSource as Fts5KeywordSource;
    source.threadMinRows = 1000; // the lengths in the thread too
    const thread = source.thread!;
    // Writes set off between the warm-up's batches, so they run while the next batch is read:
    // new notes, edited and deleted ones, and a transaction that queries its own writes.
    const write = async (i: number) => {
      await t.s.nodes.create(t.tenantId, { title: `w7 w8 common ${i}`, content: words(i) });
      await t.s.nodes.update(t.tenantId, ids[i], { content: `w7 w3 shared ${words(2)}` });
      await t.s.nodes.remove(t.tenantId, ids[100 + i]);
      await t.s.db.withTx(async () => {
        await t.s.nodes.create(t.tenantId, { title: `quokka common ${i}`, content: 'w9 w9 shared' });
        expect((await route.keywordTop(t.tenantId, ['"quokka"'], {}, 5)).total).toBeGreaterThan(0);
      });
    };
    const writes: Promise<void>[] = [];
    const pause = async () => (writes.push(write(writes.length)), true);
    expect(await route.ranker.warm(t.tenantId, 20, pause, 0)).toBeGreaterThan(250);
    expect(writes.length).toBeGreaterThan(5);
    await Promise.all(writes);
    expect(thread.served).toBeGreaterThan(2); // the lengths, the terms, and postings in batches
    await expectSameAsEngine('warmed in a thread, written meanwhile');
    const served = thread.served;
    const lengths = await source.lengths(t.tenantId);
    expect(thread.served).toBe(served + 1);
    source.threadMinRows = Infinity;
    expect(await source.lengths(t.tenantId)).toEqual(lengths); // the connection reads the same
    const termsInThread = await source.terms(t.tenantId, 20);
    // A thread that cannot read: the connection reads instead.
    await thread.close();
    expect(await source.terms(t.tenantId, 20)).toEqual(termsInThread);
    route.ranker.evictTenant(t.tenantId);
    expect(await new KeywordWarmer(route.ranker, async () => [t.tenantId], t.log, { floor: 20 }).keep(t.tenantId)).toBeGreaterThan(250);
    await expectSameAsEngine('warmed on the connection');
  });

  it('warms the most held terms first and stops near its memory cap', async () => {
    await seed();
    const counts = await t.s.repos.keywordSource.terms(t.tenantId, 20);
    const terms = counts.map((c) => c.term);
    const { df } = await route.termStats(t.tenantId, terms.map((w) => `"${w}"`));
    expect(counts.map((c) => c.df)).toEqual(df);
    expect(df).toEqual([...df].sort((a, b) => b - a));
    route.ranker.evictTenant(t.tenantId);
    const whole = await route.ranker.warm(t.tenantId, 20);
    const bytes = route.ranker.cache.bytes();
    route.ranker.evictTenant(t.tenantId);
    route.ranker.cache.capBytes = Math.floor(bytes * 0.6);
    const read = await route.ranker.warm(t.tenantId, 20);
    expect(read).toBeLessThan(whole);
    expect(route.ranker.cache.bytes()).toBeLessThanOrEqual(route.ranker.cache.capBytes);
    const kept = route.ranker.cache.get(t.tenantId)!;
    expect(terms.slice(0, read).every((w) => kept.has(w))).toBe(true);
    await expectSameAsEngine('warmed to a cap');
    route.ranker.cache.capBytes = null;
  });

  it('reads a tenant again once it has taken in many writes, and keeps nothing when turned off', async () => {
    const ids = await seed(600);
    const warmer = new KeywordWarmer(route.ranker, async () => [t.tenantId], t.log, { floor: 20 });
    await warmer.keep(t.tenantId);
    route.ranker.changedMax = 25;
    for (const id of ids.slice(0, 40)) await t.s.nodes.update(t.tenantId, id, { content: words(3) });
    await route.keywordTop(t.tenantId, ['"w7"'], {}, 10);
    expect(route.ranker.stale(t.tenantId)).toBe(true);
    expect(await warmer.refresh()).toBe(1);
    expect(route.ranker.stale(t.tenantId)).toBe(false);
    await expectSameAsEngine('read again');
    const off = new KeywordWarmer(route.ranker, async () => [t.tenantId], t.log, { keepInMemory: false });
    expect(await off.keep(t.tenantId)).toBe(0);
  });

  it('keeps tenants whose seqs interleave apart, and evicts a whole tenant to load it again on its next query', async () => {
    const other = (await t.s.tenants.create('other')).tenant_id;
    await seed(1600, [other]);
    await expectSameAsEngine('interleaved');
    await expectSameAsEngine('the other tenant', other);
    expect(route.ranker.cache.bytesOf(t.tenantId)).toBeGreaterThan(0);
    expect(route.ranker.cache.lastUsed(other)).toBeGreaterThan(0);
    expect(route.ranker.evictTenant(t.tenantId)).toBeGreaterThan(0);
    expect(route.ranker.cache.tenantIds()).toEqual([other]);
    await t.s.nodes.create(other, { title: 'w7 w8', content: 'w7' });
    await t.s.nodes.create(t.tenantId, { title: 'w7 w9', content: 'w8' });
    await expectSameAsEngine('interleaved, after writes');
    await expectSameAsEngine('the other tenant, after writes', other);
  });

  it('sees a write at once over HTTP: a new note with a common word is found and ranked, a deleted one gone', async () => {
    await seed();
    const before = await (await t.req('GET', '/api/v1/nodes?query=common&mode=keyword&per_page=5')).json();
    expect(before.total_matches).toBe(1200);
    const created = await (await t.req('POST', '/api/v1/nodes', { title: 'common common common', content: 'common' })).json();
    const after = await (await t.req('GET', '/api/v1/nodes?query=common&mode=keyword&per_page=5')).json();
    expect(after.total_matches).toBe(1201);
    expect(after.data[0].id).toBe(created.id);
    await t.req('DELETE', `/api/v1/nodes/${created.id}`);
    const gone = await (await t.req('GET', '/api/v1/nodes?query=common&mode=keyword&per_page=5')).json();
    expect(gone.total_matches).toBe(1200);
    expect(gone.data.map((d: { id: string }) => d.id)).toEqual(before.data.map((d: { id: string }) => d.id));
  });

  it('ranks filtered queries as the engine does (the filter hands the module the nodes it may rank), before and after writes', async () => {
    const ids = await seed();
    const half = iso(Date.now() + 1000);
    for (const id of ids.slice(0, 300)) await t.s.nodes.update(t.tenantId, id, { status: 'validated' });
    // The reference scores in SQL: on PostgreSQL, with no statistics yet for the tables just
    // filled (autovacuum takes them within a minute), its plan joined every scored node to
    // every filtered one, 2-3 s a query on a 2-core machine.
    if (t.s.db.engine === 'postgres') await t.s.db.exec('ANALYZE nodes, node_keywords');
    const filters: NodeFilter[] = [{ tags: ['w5'] }, { status: 'validated' }, { status: 'raw', tags: ['w5'] }, { orphan: true }, { updated_after: half }, { tags: ['nowhere'] }, { status_not: 'raw' }];
    for (const f of filters) await expectSameAsEngine(`cold ${JSON.stringify(f)}`, t.tenantId, f);
    await new KeywordWarmer(route.ranker, async () => [t.tenantId], t.log, { floor: 20 }).keep(t.tenantId);
    for (let i = 0; i < 20; i++) await t.s.nodes.create(t.tenantId, { title: `w7 w8 new ${i}`, content: words(i), tags: ['w5'] });
    for (const id of ids.slice(290, 320)) await t.s.nodes.update(t.tenantId, id, { content: `w7 w3 ${words(2)}`, tags: ['w5'] });
    for (const id of ids.slice(320, 340)) await t.s.nodes.remove(t.tenantId, id);
    for (const f of filters) await expectSameAsEngine(`after writes ${JSON.stringify(f)}`, t.tenantId, f);
  }, 120_000);

  it('lists the newest nodes holding a term, asking a filter a page at a time (link suggestions, for a word too common to rank)', async () => {
    const ids = await seed(200);
    const seqOf = async (id: string) => (await t.s.repos.nodes.get(t.tenantId, id))!.seq;
    // The 30 newest are dismissed: with 5 asked for, the filter is asked about 20 at a time, twice.
    for (const id of ids.slice(-30)) await t.s.nodes.update(t.tenantId, id, { status: 'dismissed' });
    const live: NodeFilter = { status_not: 'dismissed' };
    expect(await route.newestMatches(t.tenantId, ['"common"'], live, 5)).toEqual(await Promise.all(ids.slice(165, 170).reverse().map(seqOf)));
    expect(await route.newestMatches(t.tenantId, ['"common"'], {}, 2)).toEqual(await Promise.all(ids.slice(198).reverse().map(seqOf)));
    // Any of the terms; a note written since comes first, a deleted one is gone.
    const quokkas = ids.filter((_, i) => i % 13 === 0);
    expect(await route.newestMatches(t.tenantId, ['"quokka"', '"zephyr"'], {}, 3)).toEqual(await Promise.all([ids[195], ids[194], ids[182]].map(seqOf)));
    const added = await t.s.nodes.create(t.tenantId, { title: 'quokka', content: 'a late quokka' });
    await t.s.nodes.remove(t.tenantId, quokkas[quokkas.length - 1]);
    expect(await route.newestMatches(t.tenantId, ['"quokka"'], live, 2)).toEqual([await seqOf(added.id), await seqOf(ids[169])]);
    expect(await route.newestMatches(t.tenantId, ['"nowhere"'], live, 5)).toEqual([]);
  });

  it("counts each term's nodes from the engine's statistics without reading postings (link suggestions choose their terms so)", async () => {
    const ids = await seed(300);
    for (const id of ids.slice(0, 20)) await t.s.nodes.update(t.tenantId, id, { content: 'zephyr quokka' });
    await t.s.nodes.create(t.tenantId, { title: 'zephyr', content: 'a new zephyr' });
    const phrases = ['"common"', '"zephyr"', '"quokka"', '"w7"', '"nowhere"', '"e-mail"'];
    const reads = route.ranker.reads;
    const counts = await route.termCounts(t.tenantId, phrases);
    expect(route.ranker.reads).toBe(reads);
    expect(route.ranker.cache.get(t.tenantId)?.size ?? 0).toBe(0);
    expect(counts).toEqual((await route.termStats(t.tenantId, phrases)).df);
    expect(counts[1]).toBeGreaterThan(20);
    expect(counts[4]).toBe(0);
    // Terms the module holds are counted from it, the engine asked only for the others.
    route.ranker.evictTenant(t.tenantId);
    await route.keywordTop(t.tenantId, ['"common"', '"zephyr"'], {}, 10);
    await t.s.nodes.create(t.tenantId, { title: 'zephyr common', content: 'again' });
    const asked: string[] = [];
    const source = t.s.repos.keywordSource;
    const df = source.df.bind(source);
    source.df = async (tenantId, terms) => (asked.push(...terms), await df(tenantId, terms));
    const held = await route.termCounts(t.tenantId, phrases);
    expect(held).toEqual((await route.termStats(t.tenantId, phrases)).df);
    expect(asked).not.toContain('common');
    expect(asked).not.toContain('zephyr');
    expect(asked).toContain('quokka');
  });

  it('keeps filters exact over HTTP', async () => {
    await seed();
    const all = await (await t.req('GET', '/api/v1/nodes?query=common&mode=keyword&status=raw&per_page=3')).json();
    expect(all.total_matches).toBe(1200);
    const none = await (await t.req('GET', '/api/v1/nodes?query=common&mode=keyword&status=validated')).json();
    expect(none).toMatchObject({ total_matches: 0, data: [] });
  });

  it('inside a transaction, the module sees its own uncommitted writes, and forgets them when they roll back', async () => {
    await seed(300);
    await new KeywordWarmer(route.ranker, async () => [t.tenantId], t.log, { floor: 5 }).keep(t.tenantId);
    const outside = (await route.keywordTop(t.tenantId, ['"quokka"'], {}, 1000)).total;
    const now = iso(Date.now());
    const insert = async (title: string) => await t.s.repos.nodes.insert({ id: newId('nod'), tenant_id: t.tenantId, title, summary: '', body_markdown: title, tags: '[]', status: 'raw', created_at: now, updated_at: now });
    const tx = async () =>
      await t.s.db.withTx(async () => {
        for (let i = 0; i < 3; i++) await insert('quokka quokka');
        expect((await route.keywordTop(t.tenantId, ['"quokka"'], {}, 1000)).total).toBe(outside + 3);
        // A rare word read for the first time inside the transaction, a savepoint rolled back.
        await insert('wombat');
        expect((await route.keywordTop(t.tenantId, ['"wombat"'], {}, 10)).total).toBe(1);
        await expect(t.s.db.withTx(async () => {
          await insert('wombat quokka');
          expect((await route.keywordTop(t.tenantId, ['"wombat"'], {}, 10)).total).toBe(2);
          throw new Error('undo the savepoint');
        })).rejects.toThrow('undo the savepoint');
        expect((await route.keywordTop(t.tenantId, ['"wombat"', '"quokka"'], {}, 1000)).total).toBe(outside + 4);
        await expectSameAsEngine('inside a transaction');
        throw new Error('roll back');
      });
    await expect(tx()).rejects.toThrow('roll back');
    expect((await route.keywordTop(t.tenantId, ['"quokka"'], {}, 1000)).total).toBe(outside);
    expect((await route.keywordTop(t.tenantId, ['"wombat"'], {}, 10)).total).toBe(0);
    await expectSameAsEngine('after a rolled back transaction');
  });

  it("a tenant's first note written and searched in a transaction that rolls back leaves search, context and the next note working", async () => {
    const other = (await t.s.tenants.create('fresh')).tenant_id; // no note yet: no keyword table
    const now = iso(Date.now());
    await expect(t.s.db.withTx(async () => {
      await t.s.repos.nodes.insert({ id: newId('nod'), tenant_id: other, title: 'quokka', summary: '', body_markdown: 'quokka', tags: '[]', status: 'raw', created_at: now, updated_at: now });
      expect((await route.keywordTop(other, ['"quokka"'], {}, 10)).total).toBe(1);
      expect(await route.newestMatches(other, ['"quokka"'], {}, 10)).toHaveLength(1);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect((await route.keywordTop(other, ['"quokka"'], {}, 10)).total).toBe(0);
    expect(await route.newestMatches(other, ['"quokka"'], {}, 10)).toEqual([]);
    await t.s.nodes.create(other, { title: 'quokka again', content: 'quokka' });
    expect((await route.keywordTop(other, ['"quokka"'], {}, 10)).total).toBe(1);
  });

  it('ranks a quoted term the engine indexes as several tokens as those tokens', async () => {
    await t.s.nodes.create(t.tenantId, { title: 'e-mail etiquette', content: 'reply within a day' });
    await t.s.nodes.create(t.tenantId, { title: 'mail sorting', content: 'letters by hand' });
    await t.s.nodes.create(t.tenantId, { title: 'post', content: 'parcels' });
    // Both notes holding "mail" match, not the third: the term is not read as an adjacent phrase.
    const top = await route.keywordTop(t.tenantId, ['"e-mail"'], {}, 10);
    expect(top.total).toBe(2);
    const stats = await route.termStats(t.tenantId, ['"e-mail"']);
    expect(stats.n).toBe(3);
    expect(stats.df).toEqual([1]); // its rarest token's (FTS5's "e"), not 2 for "mail"
  });
});
