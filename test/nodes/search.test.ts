import { raw } from '../helpers/raw.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
  await t.s.queue.start();
});
afterEach(() => t.close());

async function node(body: Record<string, unknown>, auth?: string) {
  const res = await t.req('POST', '/api/v1/nodes', body, auth);
  expect(res.status).toBe(201);
  return res.json();
}
async function search(qs: string, auth?: string) {
  const res = await t.req('GET', `/api/v1/nodes?${qs}`, undefined, auth);
  const body = await res.json();
  if (res.status !== 200) throw new Error(JSON.stringify(body));
  return body;
}

describe('search modes', () => {
  beforeEach(async () => {
    await node({ title: 'Compost heap temperature', content: 'A hot compost pile reaches sixty degrees.', tags: ['garden'] });
    await node({ title: 'Tomato seedlings', content: 'Harden off seedlings before planting out.', tags: ['garden'] });
    await node({ title: 'Rust ownership rules', content: 'Each value has a single owner; borrowing is checked.', tags: ['code'] });
    await t.s.queue.idle();
  });

  it('keyword finds by body text, ranks title matches, reports totals and no provenance', async () => {
    const r = await search('query=seedlings&mode=keyword');
    expect(r.data.map((n: { title: string }) => n.title)).toEqual(['Tomato seedlings']);
    expect(r).toMatchObject({ total: 1, total_matches: 1, coverage_capped: false, page: 1, per_page: 20 });
    expect(r.data[0].match_provenance).toBeUndefined();
  });

  it('keyword matches tags and stems (porter)', async () => {
    expect((await search('query=code&mode=keyword')).data[0].title).toBe('Rust ownership rules');
    expect((await search('query=borrow&mode=keyword')).data[0].title).toBe('Rust ownership rules');
  });

  it('semantic returns the nearest vectors that clear the model floor, without total_matches', async () => {
    const r = await search('query=compost%20heap%20temperature&mode=semantic');
    expect(r.data[0].title).toBe('Compost heap temperature');
    expect(r.data.map((n: { title: string }) => n.title)).not.toContain('Rust ownership rules');
    expect(r.total_matches).toBeUndefined();
  });

  it('hybrid carries match_provenance for every result', async () => {
    const r = await search('query=compost');
    expect(r.data[0].title).toBe('Compost heap temperature');
    expect(r.data[0].match_provenance).toMatchObject({ keyword: true, semantic: true });
    expect(typeof r.data[0].match_provenance.score).toBe('number');
    for (const n of r.data) expect(n.match_provenance).toBeDefined();
    // The two other notes are not about compost: nothing under the floor pads the list.
    const semOnly = r.data.filter((n: { match_provenance: { keyword: boolean } }) => !n.match_provenance.keyword);
    expect(semOnly.length).toBe(0);
    expect(r.total_matches).toBe(1);
  });

  it('finds a node by keyword before its embedding exists', async () => {
    await t.s.queue.stop();
    await node({ title: 'Freshly written note about kombucha' });
    expect((await search('query=kombucha&mode=keyword')).data[0].title).toBe('Freshly written note about kombucha');
    const r = await search('query=kombucha');
    const hit = r.data.find((n: { title: string }) => n.title.includes('kombucha'));
    expect(hit.match_provenance).toMatchObject({ keyword: true, semantic: false });
    expect(r.total_matches).toBe(1);
  });

  it.each(['"unbalanced', 'NEAR(a b)', 'seed*', '^start', 'a - b', 'title:compost', '(((', 'AND OR NOT', "it's", '*', '""', '-', 'c++ && ||'])(
    'FTS5 syntax in %j is plain text, never an error',
    async (q) => {
      for (const mode of ['keyword', 'semantic', 'hybrid']) {
        const res = await t.req('GET', `/api/v1/nodes?mode=${mode}&query=${encodeURIComponent(q)}`);
        expect(res.status).toBe(200);
      }
    },
  );

  it('title:compost searches the words, not a column filter', async () => {
    const r = await search(`mode=keyword&query=${encodeURIComponent('title:compost')}`);
    expect(r.data.map((n: { title: string }) => n.title)).toContain('Compost heap temperature');
  });
});

describe('pagination, totals and limits', () => {
  it('pages through keyword results and an unfiltered listing newest first', async () => {
    for (let i = 0; i < 25; i++) {
      await node({ title: `Note ${String(i).padStart(2, '0')} about walnuts` });
      t.clock.advance(1000);
    }
    await t.s.queue.idle();
    const p1 = await search('query=walnuts&mode=keyword&per_page=10');
    const p3 = await search('query=walnuts&mode=keyword&per_page=10&page=3');
    expect(p1).toMatchObject({ total: 25, total_matches: 25, page: 1, per_page: 10 });
    expect(p1.data).toHaveLength(10);
    expect(p3.data).toHaveLength(5);
    const all = await search('per_page=100');
    expect(all.total).toBe(25);
    expect(all.data[0].title).toBe('Note 24 about walnuts');
    const h = await search('query=walnuts&per_page=100');
    expect(new Set(h.data.map((n: { id: string }) => n.id)).size).toBe(25);
  });

  it.each([
    `query=${'a'.repeat(501)}`,
    'per_page=0',
    'per_page=101',
    'page=0',
    'page=-1',
    'page=abc',
    'mode=fuzzy',
    'status=done',
    'orphan=yes',
  ])('rejects %s with 400', async (qs) => {
    await expectProblem(await t.req('GET', `/api/v1/nodes?${qs}`), 400, 'validation_failed');
  });

  it('accepts a query of exactly 500 characters', async () => {
    expect((await t.req('GET', `/api/v1/nodes?query=${'a'.repeat(500)}`)).status).toBe(200);
  });
});

describe('filters', () => {
  it('status, para_item_id and orphan apply in every mode', async () => {
    const pid = await raw(t.s.db)
      .prepare("INSERT INTO para_items (id, tenant_id, category, label, slug, created_at, updated_at) VALUES ('par_f', ?, 'areas', 'Garden', 'garden', 'x', 'x') RETURNING id")
      .pluck()
      .get(t.tenantId) as string;
    const a = await node({ title: 'apple tree pruning', status: 'validated', para_item_ids: [pid] });
    const b = await node({ title: 'apple pie recipe' });
    await node({ title: 'apple cider', status: 'dismissed' });
    await t.s.queue.idle();
    for (const mode of ['keyword', 'semantic', 'hybrid']) {
      const ids = async (qs: string) => (await search(`mode=${mode}&query=apple&${qs}`)).data.map((n: { id: string }) => n.id);
      expect(await ids('status=validated')).toEqual([a.id]);
      expect(await ids(`para_item_id=${pid}`)).toEqual([a.id]);
      const orphans = await ids('orphan=true');
      expect(orphans).toHaveLength(2);
      expect(orphans).toContain(b.id);
      expect(await ids('orphan=false')).toEqual([a.id]);
      expect(await ids('status=raw&orphan=true')).toEqual([b.id]);
    }
    expect((await search('status=dismissed')).total).toBe(1);
  });
});

describe('tenant isolation', () => {
  it('no mode ever returns another tenant’s nodes', async () => {
    const b = await t.tenant('beta');
    await node({ title: 'alpha secret walnut' });
    await node({ title: 'beta walnut notes' }, b.auth);
    await t.s.queue.idle();
    for (const mode of ['keyword', 'semantic', 'hybrid']) {
      const ra = await search(`mode=${mode}&query=walnut`);
      const rb = await search(`mode=${mode}&query=walnut`, b.auth);
      expect(ra.data.map((n: { title: string }) => n.title)).toEqual(['alpha secret walnut']);
      expect(rb.data.map((n: { title: string }) => n.title)).toEqual(['beta walnut notes']);
    }
    expect((await search('', b.auth)).total).toBe(1);
  });
});
