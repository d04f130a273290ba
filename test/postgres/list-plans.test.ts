// Lists of keys handed to one statement (a search page's seqs, the hits a filter checks, ids)
// are read on PostgreSQL by key, whatever the tenant's size. Sent as JSON
// (`json_array_elements_text`), PostgreSQL took any list for 100 rows, and for a page of 10
// seqs among a few thousand notes it hashed every node of the tenant: 3.7 ms a page
// against 0.13 ms by key, the largest PostgreSQL cost of a search under `npm run bench:load`.
// Each statement the repositories send is explained with its own parameters.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PgStore } from '../../src/db/store/pg-store.js';
import { sql } from '../../src/db/store/sql.js';
import { HighlightsRepo } from '../../src/repos/highlights.repo.js';
import { NodesRepo } from '../../src/repos/nodes.repo.js';
import { PassagesRepo } from '../../src/repos/passages.repo.js';
import { PgKeywordIndex } from '../../src/repos/pg/keyword-index.pg.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

const NOW = '2026-12-02T09:00:00.000Z';
const TENANT = 'ten_plans';

interface Sent {
  sql: string;
  params: unknown[];
}

describePg('lists of keys on PostgreSQL', () => {
  let pgdb: TestPgDatabase;
  let db: PgStore;
  let sent: Sent[];

  beforeAll(async () => {
    pgdb = await createTestDatabase({ migrated: true });
    db = new PgStore(pgdb.url);
    await db.run(sql`INSERT INTO tenants (id, name, created_at) VALUES (${TENANT}, 'plans', ${NOW})`);
    await db.run(sql`INSERT INTO tenants (id, name, created_at) VALUES ('ten_other', 'other', ${NOW})`);
    // Enough notes that reading every one costs more than a few lookups by key.
    await db.exec(`INSERT INTO nodes (id, tenant_id, title, body_markdown, created_at, updated_at)
      SELECT 'nod_' || i, CASE WHEN i % 4 = 0 THEN 'ten_other' ELSE '${TENANT}' END, 'Note ' || i, repeat('text ', 40), '${NOW}', '${NOW}'
      FROM generate_series(1, 4000) AS i`);
    // Three passages and one highlight a note, so that reading them all costs more than by key.
    await db.exec(`INSERT INTO node_passages (tenant_id, node_id, node_seq, start_offset, end_offset, embedding)
      SELECT n.tenant_id, n.id, n.seq, k * 60, k * 60 + 60, '\\x00'::bytea FROM nodes n CROSS JOIN generate_series(0, 2) AS k`);
    await db.exec(`INSERT INTO highlights (id, tenant_id, node_id, text, color, source, source_key, created_at, updated_at)
      SELECT 'hl_' || n.seq, n.tenant_id, n.id, 'text', 'yellow', 'reader', 'key_' || n.seq, '${NOW}', '${NOW}' FROM nodes n`);
    await db.exec('ANALYZE nodes; ANALYZE node_passages; ANALYZE highlights');
    const query = db.query.bind(db);
    sent = [];
    db.query = (async (text: string, params: unknown[] = []) => {
      sent.push({ sql: text, params });
      return await query(text, params);
    }) as typeof db.query;
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await pgdb?.drop();
  });

  /** The plan of each statement sent by `fn`, as PostgreSQL makes it for those parameters. */
  async function plans(fn: () => Promise<unknown>): Promise<string[]> {
    sent = [];
    await fn();
    expect(sent.length).toBeGreaterThan(0);
    const out: string[] = [];
    for (const s of sent) {
      const r = await db.pool.query(`EXPLAIN (COSTS OFF) ${s.sql}`, s.params);
      out.push(r.rows.map((row) => row['QUERY PLAN']).join('\n'));
    }
    return out;
  }

  const seqsOf = async (n: number) => (await db.all<{ seq: number }>(sql`SELECT seq FROM nodes WHERE tenant_id = ${TENANT} ORDER BY seq DESC LIMIT ${n}`)).map((r) => Number(r.seq));

  it('a search page, the filter check of semantic hits, dates and rows by id: no scan of the nodes', async () => {
    const nodes = new NodesRepo(db, new PgKeywordIndex(db));
    const seqs = await seqsOf(10);
    const ids = seqs.map((s) => `nod_${s}`);
    const all = [
      ...(await plans(() => nodes.pageBySeqs(TENANT, seqs))),
      ...(await plans(() => nodes.passing(TENANT, seqs, { status: 'raw' }))),
      ...(await plans(() => nodes.datesBySeqs(TENANT, seqs))),
      ...(await plans(() => nodes.getByIds(TENANT, ids))),
    ];
    for (const plan of all) {
      expect(plan).not.toMatch(/Seq Scan on nodes/);
      expect(plan).toMatch(/Index Scan using (nodes_pkey|nodes_id_key) on nodes/);
    }
    // And they answer: the page holds the ten, the filter keeps them (all raw).
    expect((await nodes.pageBySeqs(TENANT, seqs)).map((r) => Number(r.seq)).sort()).toEqual([...seqs].sort());
    expect([...(await nodes.passing(TENANT, seqs, { status: 'raw' })).keys()].sort()).toEqual([...seqs].sort());
    expect((await nodes.getByIds(TENANT, ids)).length).toBe(10);
    // Another tenant's keys give nothing.
    expect(await nodes.pageBySeqs('ten_other', seqs)).toEqual([]);
  });

  it('highlights and passages of a page are read by key', async () => {
    const seqs = await seqsOf(10);
    const ids = seqs.map((s) => `nod_${s}`);
    const highlights = new HighlightsRepo(db);
    const passages = new PassagesRepo(db);
    const plansOf = [...(await plans(() => highlights.byNodes(TENANT, ids))), ...(await plans(() => passages.ofSeqs(TENANT, seqs)))];
    for (const plan of plansOf) {
      expect(plan).not.toMatch(/Seq Scan|Hash Join|HashAggregate|Function Scan on json/);
      expect(plan).toMatch(/(Bitmap )?Index (Only )?Scan (using|on) (highlights_node|node_passages_node)/);
    }
    // And they answer: one highlight and three passages for each of the ten.
    expect((await highlights.byNodes(TENANT, ids)).length).toBe(10);
    expect((await passages.ofSeqs(TENANT, seqs)).length).toBe(30);
    expect(await passages.ofSeqs('ten_other', seqs)).toEqual([]);
  });
});
