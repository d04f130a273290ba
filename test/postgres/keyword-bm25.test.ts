// BM25 on PostgreSQL gives the scores SQLite's FTS5 gives for the same nodes (same terms,
// same statistics, same formula), and each tenant's statistics are its own.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/open.js';
import type { PgClient } from '../../src/db/pg/connect.js';
import { migratePg } from '../../src/db/pg/migrate.js';
import { PgKeywordIndex } from '../../src/repos/pg/keyword-index.pg.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { fts5NodeKeywords } from '../../src/repos/keyword-index.repo.js';
import { NodesRepo, type NodeRow } from '../../src/repos/nodes.repo.js';
import { contentTerms } from '../../src/search/fts-query.js';
import { queryLexemes } from '../../src/search/lexemes.js';
import { quoteTerm } from '../../src/search/text.js';
import { engineStats, engineTop, pgBm25 } from '../helpers/engine-bm25.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

const NOW = '2026-01-01T00:00:00.000Z';
const DOCS: Array<[string, string, string, string[]]> = [
  ['Grafting apple trees', 'Whip and tongue', 'Graft apples in early spring, when the sap rises. Grafting older trees takes patience.', ['orchard', 'trees']],
  ['Pruning', '', 'Prune apple and pear trees in winter; never prune stone fruit then.', ['orchard']],
  ['Graph databases', 'Nodes and edges', 'A graph stores nodes and the links between them. Graphs answer path questions.', ['databases']],
  ['Café notes', '', 'The café near the station serves good coffee; the espresso is strong.', []],
  ['Running a marathon', 'Training plan', 'Running long distances needs a slow build-up of weekly mileage.', ['sport']],
  ['Knowledge graphs', '', 'Knowledge graphs link entities; a personal knowledge graph links notes.', ['notes', 'graph']],
  ['Apple pie', 'Recipe', 'Apples, butter, flour and sugar. Bake the pie for forty minutes.', ['food']],
];
const QUERIES = ['apple trees', 'grafting', 'graphs', 'knowledge graph notes', 'the cafe', 'running', 'how do I prune pear trees in winter', 'the of and', 'espresso café', 'nothing matches this'];

describePg('BM25 keyword search on PostgreSQL', () => {
  let pgdb: TestPgDatabase;
  let pg: PgClient;
  let sqlite: Db;
  let nodes: NodesRepo;
  let store: SqliteStore;
  let kw: PgKeywordIndex;
  let sync: PgStore;

  async function add(tenant: string, id: string, [title, summary, body, tags]: (typeof DOCS)[number]): Promise<number> {
    const row = { id, tenant_id: tenant, title, summary, body_markdown: body, tags: JSON.stringify(tags), status: 'raw' as const, created_at: NOW, updated_at: NOW };
    const seq = await nodes.insert(row);
    await pg.query(
      'INSERT INTO nodes (seq, id, tenant_id, title, summary, body_markdown, tags, status, created_at, updated_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)',
      [seq, id, tenant, title, summary, body, row.tags, 'raw', NOW, NOW],
    );
    await kw.upsert(tenant, seq, { title, summary, body, tags: tags.join(' ') });
    return seq;
  }
  /** FTS5's bm25() over these nodes (SQLite's own scoring), best first. */
  const fts = async (s: SqliteStore, tenant: string, q: string, limit = 20) => (await engineTop(s, tenant, contentTerms(q).map(quoteTerm), {}, limit)).hits;
  /** BM25 in SQL on PostgreSQL (the tests' reference), best first. */
  const pgRank = async (tenant: string, q: string, limit = 20) => (await pgBm25(sync, tenant, queryLexemes(q), limit)).map(({ seq, score }) => ({ seq, score }));
  const df = async (tenant: string, word: string) => (await engineStats(sync, tenant, [quoteTerm(word)])).df;

  beforeAll(async () => {
    pgdb = await createTestDatabase();
    pg = await pgdb.client();
    await migratePg(pg);
    sqlite = openDatabase(':memory:');
    store = new SqliteStore(sqlite);
    nodes = new NodesRepo(store, fts5NodeKeywords(store));
    sync = new PgStore(pgdb.url);
    kw = new PgKeywordIndex(sync);
    for (const t of ['ten_a', 'ten_b']) {
      sqlite.prepare('INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)').run(t, t, NOW);
      await pg.query('INSERT INTO tenants (id, name, created_at) VALUES ($1, $1, $2)', [t, NOW]);
    }
    for (const [i, d] of DOCS.entries()) await add('ten_a', `a${i}`, d);
  });
  afterAll(async () => {
    sqlite?.close();
    await sync?.close();
    await pgdb?.drop();
  });

  it('ranks and scores exactly as FTS5 does (stemming, accents, stopwords, field weights)', async () => {
    for (const q of QUERIES) {
      const want = await fts(store, 'ten_a', q);
      const got = await pgRank('ten_a', q);
      expect(got.map((h) => h.seq), q).toEqual(want.map((h) => h.seq));
      got.forEach((h, i) => expect(h.score, q).toBeCloseTo(want[i].score, 9));
    }
    // Stems meet: "graphs" finds the nodes that say "graph"; "running" the one that says "Running".
    expect((await pgRank('ten_a', 'graphs', 20)).length).toBe(2);
    // Stopwords carry nothing: "the cafe" scores as "cafe" does.
    expect(await pgRank('ten_a', 'the cafe', 20)).toEqual(await pgRank('ten_a', 'cafe', 20));
    expect(await pgRank('ten_a', 'nothing matches this', 20)).toEqual([]);
  });

  it("keeps each tenant's statistics apart: B's nodes full of A's words do not move A's scores", async () => {
    const before = await Promise.all(QUERIES.map((q) => pgRank('ten_a', q, 20)));
    const bSeqs: number[] = [];
    for (let i = 0; i < 30; i++) bSeqs.push(await add('ten_b', `b${i}`, ['apple apple grafting graph', 'trees knowledge', 'apple trees graphs running café pruning winter', ['orchard']]));
    const after = await Promise.all(QUERIES.map((q) => pgRank('ten_a', q, 20)));
    expect(after).toEqual(before);
    expect(await engineStats(sync, 'ten_a', ['"apple"'])).toEqual({ n: DOCS.length, df: [3] });
    expect(await df('ten_b', 'apple')).toEqual([30]);
    // B's search sees only B's nodes, scored with B's statistics (as FTS5 does in B's table).
    const bHits = await pgRank('ten_b', 'apple trees', 50);
    expect(bHits.every((h) => bSeqs.includes(h.seq))).toBe(true);
    const want = await fts(store, 'ten_b', 'apple trees', 50);
    expect(bHits.length).toBe(want.length);
    bHits.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].score, 9));
  });

  it('keeps the statistics right through updates and deletes: as a fresh index of the same nodes', async () => {
    const row = await nodes.get('ten_a', 'a6') as NodeRow;
    const body = 'Apples and cinnamon. Bake slowly.';
    await kw.upsert('ten_a', row.seq, { title: row.title, summary: row.summary, body, tags: 'food' });
    await kw.delete('ten_a', (await nodes.get('ten_a', 'a0') as NodeRow).seq);
    await pg.query("DELETE FROM nodes WHERE id = 'a0'");
    // The reference is FTS5 over the final nodes loaded afresh. (FTS5's contentless_delete
    // tables keep a deleted row in N and in the total length, so an FTS5 table that lived
    // through the same edits scores slightly differently; PostgreSQL's triggers do not drift.)
    const fresh = openDatabase(':memory:');
    fresh.prepare('INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)').run('ten_a', 'ten_a', NOW);
    const freshStore = new SqliteStore(fresh);
    const freshNodes = new NodesRepo(freshStore, fts5NodeKeywords(freshStore));
    const idOfFresh = new Map<number, string>();
    for (const [i, [title, summary, b, tags]] of DOCS.entries()) {
      if (i === 0) continue;
      const seq = await freshNodes.insert({ id: `a${i}`, tenant_id: 'ten_a', title, summary, body_markdown: i === 6 ? body : b, tags: JSON.stringify(tags), status: 'raw', created_at: NOW, updated_at: NOW });
      idOfFresh.set(seq, `a${i}`);
    }
    const idOf = new Map((await pg.query("SELECT seq, id FROM nodes WHERE tenant_id = 'ten_a'")).rows.map((r) => [r.seq as number, r.id as string]));
    for (const q of QUERIES) {
      const want = await fts(freshStore, 'ten_a', q);
      const got = await pgRank('ten_a', q);
      expect(got.map((h) => idOf.get(h.seq)), q).toEqual(want.map((h) => idOfFresh.get(h.seq)));
      got.forEach((h, i) => expect(h.score, q).toBeCloseTo(want[i].score, 9));
    }
    fresh.close();
    expect(await df('ten_a', 'graft')).toEqual([0]);
    expect(await df('ten_a', 'cinnamon')).toEqual([1]);
  });
});
