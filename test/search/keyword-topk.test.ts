
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { commonTermFloor } from '../../src/repos/search.repo.js';
import { buildFtsQuery, contentTerms } from '../../src/search/fts-query.js';
import { quoteTerm } from '../../src/search/text.js';
import { iso } from '../../src/clock.js';
import { newId } from '../../src/ids.js';
import { later } from '../helpers/later.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

/** 1,500 notes: "common" in every one (varying counts and lengths), "shared" in 70 %, rare words in a few. */
async function seed(n = 1500): Promise<void> {
  const now = iso(Date.now());
  let r = 42;
  const rand = () => ((r = (r * 1103515245 + 12345) % 2147483648) / 2147483648);
  await t.s.db.withTx(async () => {
    for (let i = 0; i < n; i++) {
      const words = ['common', ...Array.from({ length: 5 + Math.floor(rand() * 60) }, () => (rand() < 0.05 ? 'common' : `w${Math.floor(rand() * 300)}`))];
      if (rand() < 0.7) words.push('shared');
      if (i % 97 === 0) words.push('zephyr');
      if (i % 13 === 0) words.push('quokka');
      const title = rand() < 0.2 ? 'common shared note' : `note ${i}`;
      await t.s.repos.nodes.insert({ id: newId('nod'), tenant_id: t.tenantId, title, summary: '', body_markdown: words.join(' '), tags: '[]', status: 'raw', created_at: now, updated_at: now });
    }
  });
}

// The last two have no common term: FTS5 ranks them alone and counts their matches in the same statement.
const queries = ['common', 'shared', 'common shared', 'zephyr common', 'quokka shared common', 'zephyr', 'w7 common', 'w7 w8 shared', 'w7 w8', 'w12 quokka'];

describe('keyword top-k with kept term impacts', () => {
  it('ranks exactly as FTS5 scoring every match, with the exact total', async () => {
    await seed();
    const repo = t.s.repos.fts!;
    expect(repo.keywords.docFrequencies(t.tenantId, [quoteTerm('common')])[0]).toBeGreaterThanOrEqual(commonTermFloor(1500));
    for (const pool of [20, 200, 1000]) {
      for (const q of queries) {
        const full = await repo.keyword(t.tenantId, buildFtsQuery(q)!, {}, pool);
        const top = await repo.keywordTop(t.tenantId, contentTerms(q).map(quoteTerm), {}, pool);
        expect(top.hits.map((h) => h.seq), `${q} @${pool}`).toEqual(full.map((h) => h.seq));
        top.hits.forEach((h, i) => expect(h.score).toBeCloseTo(full[i].score, 9));
        const total = top.total ?? (full.length < pool ? full.length : await repo.keywordCount(t.tenantId, buildFtsQuery(q)!, {}));
        expect(total, q).toBe(await repo.keywordCount(t.tenantId, buildFtsQuery(q)!, {}));
        // Statistics a route hands back with its ranking are the ones termStats() reads (the search normalises by them).
        if (top.stats) expect(top.stats, q).toEqual(await repo.termStats(t.tenantId, contentTerms(q).map(quoteTerm)));
      }
    }
  });

  it('sees a write at once: a new note with a common word is found and ranked', async () => {
    await seed();
    const before = await (await t.req('GET', '/api/v1/nodes?query=common&mode=keyword&per_page=5')).json();
    expect(before.total_matches).toBe(1500);
    const created = await (await t.req('POST', '/api/v1/nodes', { title: 'common common common', content: 'common' })).json();
    const after = await (await t.req('GET', '/api/v1/nodes?query=common&mode=keyword&per_page=5')).json();
    expect(after.total_matches).toBe(1501);
    expect(after.data[0].id).toBe(created.id);
    await t.req('DELETE', `/api/v1/nodes/${created.id}`);
    const gone = await (await t.req('GET', '/api/v1/nodes?query=common&mode=keyword&per_page=5')).json();
    expect(gone.total_matches).toBe(1500);
    expect(gone.data.map((d: { id: string }) => d.id)).toEqual(before.data.map((d: { id: string }) => d.id));
  });

  it('keeps filters exact (they take FTS5 with the node join)', async () => {
    await seed();
    const all = await (await t.req('GET', '/api/v1/nodes?query=common&mode=keyword&status=raw&per_page=3')).json();
    expect(all.total_matches).toBe(1500);
    const none = await (await t.req('GET', '/api/v1/nodes?query=common&mode=keyword&status=validated')).json();
    expect(none).toMatchObject({ total_matches: 0, data: [] });
  });
});

describe('keyword warmer', () => {
  it('pre-scores the common terms, and re-scores the stale ones once writes are quiet', async () => {
    await seed();
    const { KeywordWarmer } = await import('../../src/services/nodes/keyword-warmer.js');
    // The route for tenants without kept postings (keyword memory off, or too small).
    const warmer = new KeywordWarmer(t.s.repos.fts!, async () => [t.tenantId], t.log, { keepInMemory: false });
    const impacts = t.s.repos.fts!.impacts;
    expect(await warmer.prewarm(t.tenantId)).toBeGreaterThanOrEqual(2); // "common" and "shared"
    const held = impacts.heldBytes();
    expect(held).toBeGreaterThan(0);
    // "commons" and "common" are one FTS5 term: the query reuses what was pre-scored.
    expect(impacts.stemOf('"commons"')).toBe(impacts.stemOf('"common"'));
    impacts.get(t.tenantId, '"commons"');
    expect(impacts.heldBytes()).toBe(held);
    expect(impacts.stale(t.tenantId)).toEqual([]);
    await t.s.nodes.create(t.tenantId, { title: 'common', content: 'shared' });
    expect(impacts.stale(t.tenantId).length).toBeGreaterThanOrEqual(2);
    expect(await warmer.refresh()).toBe(0); // the tenant just wrote: wait for quiet
    expect(await later(60_000, () => warmer.refresh())).toBeGreaterThanOrEqual(2);
    expect(impacts.stale(t.tenantId)).toEqual([]);
    const r = await (await t.req('GET', '/api/v1/nodes?query=common&mode=keyword&per_page=1')).json();
    expect(r.total_matches).toBe(1501);
  });
});
