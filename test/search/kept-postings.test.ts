
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { DIRTY_OLD_MAX } from '../../src/repos/kept-postings.repo.js';
import { changesSince } from '../../src/repos/keyword-changes.js';
import { buildFtsQuery, contentTerms } from '../../src/search/fts-query.js';
import { quoteTerm } from '../../src/search/text.js';
import { packPostings, unpackSeqs } from '../../src/search/kept-postings.js';
import { iso } from '../../src/clock.js';
import { newId } from '../../src/ids.js';
import { later } from '../helpers/later.js';

let t: TestApp;
beforeEach(async () => {
  // A database file, so that reads can go to the keyword worker (its own connection).
  t = await makeTestApp({ dbPath: join(mkdtempSync(join(tmpdir(), 'rhizome-kept-')), 'rhizome.db') });
});
afterEach(() => t.close());

let r = 42;
const rand = () => (r = (r * 1103515245 + 12345) % 2147483648) / 2147483648;
const words = () => ['common', ...Array.from({ length: 5 + Math.floor(rand() * 60) }, () => `w${Math.floor(rand() * 300)}`), ...(rand() < 0.7 ? ['shared'] : [])].join(' ');

/** n notes; with `others`, each tenant's notes in turn, so their seqs interleave. */
async function seed(n = 1500, others: string[] = []): Promise<string[]> {
  const now = iso(Date.now());
  r = 42;
  const ids: string[] = [];
  const tenants = [t.tenantId, ...others];
  await t.s.db.withTx(async () => {
    for (let i = 0; i < n; i++) {
      const id = newId('nod');
      ids.push(id);
      const title = rand() < 0.2 ? `w${i % 300} shared` : `note ${i}`;
      await t.s.repos.nodes.insert({ id, tenant_id: tenants[i % tenants.length], title, summary: '', body_markdown: words(), tags: JSON.stringify(rand() < 0.1 ? ['w5'] : []), status: 'raw', created_at: now, updated_at: now });
    }
  });
  return ids;
}

/** "common" and "shared" are common terms at this cut; every w-term (~150–250 notes) is kept. */
const CUT = 600;
const queries = ['w7', 'w7 w8', 'w5 w12 w200', 'w7 common', 'w7 shared common', 'w9 zzz', 'w3 w3', 'w1 w2 w3 w4 shared', 'common', 'zzz'];

async function expectSameAsFts5(label: string, tenantId = t.tenantId): Promise<void> {
  const repo = t.s.repos.fts!;
  for (const pool of [10, 200, 2000]) {
    for (const q of queries) {
      const full = await repo.keyword(tenantId, buildFtsQuery(q)!, {}, pool);
      const top = await repo.keywordTop(tenantId, contentTerms(q).map(quoteTerm), {}, pool, CUT);
      expect(top.hits.map((h) => h.seq), `${label}: ${q} @${pool}`).toEqual(full.map((h) => h.seq));
      top.hits.forEach((h, i) => expect(h.score, `${label}: ${q}`).toBeCloseTo(full[i].score, 9));
      expect(top.total ?? full.length, `${label}: ${q}`).toBe(await repo.keywordCount(tenantId, buildFtsQuery(q)!, {}));
    }
  }
}

describe('kept postings', () => {
  it('pack seqs as 16-bit gaps when they fit, absolute otherwise, and give them back', () => {
    const small = packPostings([3, 70, 65_000], [1, 4, 300]);
    expect(small.gaps).not.toBeNull();
    expect(small.wtf).toBeInstanceOf(Uint16Array);
    expect([...unpackSeqs(small)]).toEqual([3, 70, 65_000]);
    const wide = packPostings([3, 70_000], [1, 2]);
    expect(wide.gaps).toBeNull();
    expect(wide.wtf).toBeInstanceOf(Uint8Array);
    expect([...unpackSeqs(wide)]).toEqual([3, 70_000]);
    expect(small.last).toBe(65_000);
  });

  it.each([
    ['in the keyword worker', true],
    ['on the main thread', false],
  ])('rank exactly as FTS5, before and after writes, and step aside when too many old notes changed (read %s)', async (_, worker) => {
    const ids = await seed();
    const repo = t.s.repos.fts!;
    repo.kept.floor = 20;
    repo.kept.useWorker = worker;
    repo.kept.workerFromNotes = 0;
    expect(await repo.kept.build(t.tenantId, CUT)).toBe(true);
    expect(repo.kept.workerReads).toBe(worker ? 1 : 0);
    expect(repo.kept.termCount(t.tenantId)).toBeGreaterThanOrEqual(290);
    const keptOf = repo.kept.usable(t.tenantId)!;
    expect(keptOf(repo.impacts.stemOf('"w7"')!)).toBe(true);
    expect(keptOf(repo.impacts.stemOf('"common"')!)).toBe(false);
    await expectSameAsFts5('fresh');

    // One kept term alone: the very number FTS5 computes, not merely close, and from the kept lists.
    const score = vi.spyOn(repo.kept, 'score');
    const one = (await repo.keywordTop(t.tenantId, ['"w7"'], {}, 50, CUT)).hits;
    expect(score).toHaveBeenCalledTimes(1);
    score.mockRestore();
    expect(one).toEqual(await repo.keyword(t.tenantId, '"w7"', {}, 50));

    // New notes, edited and deleted old ones: FTS5 scores those, the kept lists the rest.
    for (let i = 0; i < 30; i++) await t.s.nodes.create(t.tenantId, { title: `w7 w8 new ${i}`, content: words() });
    for (const id of ids.slice(0, 40)) await t.s.nodes.update(t.tenantId, id, { content: `w7 w7 w3 ${words()}` });
    for (const id of ids.slice(40, 60)) await t.s.nodes.remove(t.tenantId, id);
    expect(repo.kept.usable(t.tenantId)).not.toBeNull();
    expect(repo.kept.stale(t.tenantId)).toBe(false);
    await expectSameAsFts5('after writes');

    for (const id of ids.slice(100, 100 + DIRTY_OLD_MAX + 1)) await t.s.nodes.update(t.tenantId, id, { content: words() });
    expect(repo.kept.usable(t.tenantId)).toBeNull();
    expect(repo.kept.stale(t.tenantId)).toBe(true);
    await expectSameAsFts5('too many old writes');
    expect(await repo.kept.build(t.tenantId, CUT)).toBe(true);
    expect(repo.kept.usable(t.tenantId)).not.toBeNull();
    await expectSameAsFts5('read again');

    // Common terms kept too (what the warmer reads): summed outright, no walk over impacts.
    expect(await repo.kept.build(t.tenantId, Infinity)).toBe(true);
    expect(repo.kept.usable(t.tenantId)!(repo.impacts.stemOf('"common"')!)).toBe(true);
    await expectSameAsFts5('every term kept');
    await t.s.nodes.create(t.tenantId, { title: 'common common w7', content: 'shared' });
    await expectSameAsFts5('every term kept, after a write');
  });

  it('are read by the warmer, and read again for a large tenant once writes wear them and it has been quiet', async () => {
    const ids = await seed();
    const repo = t.s.repos.fts!;
    repo.kept.floor = 20;
    const { KeywordWarmer } = await import('../../src/services/nodes/keyword-warmer.js');
    // Every tenant counts as large here: a read again waits for quiet.
    const warmer = new KeywordWarmer(repo, async () => [t.tenantId], t.log, { cheapKeepNotes: 0 });
    expect(await warmer.keep(t.tenantId)).toBe(true);
    expect(repo.kept.heldBytes(t.tenantId)).toBeGreaterThan(0);
    for (const id of ids.slice(0, DIRTY_OLD_MAX)) await t.s.nodes.update(t.tenantId, id, { content: words() });
    expect(repo.kept.stale(t.tenantId)).toBe(true);
    expect(await warmer.refresh()).toBe(0); // the tenant just wrote
    expect(repo.kept.stale(t.tenantId)).toBe(true);
    expect(await later(60_000, () => warmer.refresh())).toBeGreaterThanOrEqual(1);
    expect(repo.kept.stale(t.tenantId)).toBe(false);
    const res = await (await t.req('GET', '/api/v1/nodes?query=w7&mode=keyword&per_page=3')).json();
    expect(res.total_matches).toBe(await repo.keywordCount(t.tenantId, '"w7"', {}));
  });

  it("keep a tenant whose seqs interleave with another's, and not one spread too thin among them", async () => {
    const other = (await t.s.tenants.create('other')).tenant_id;
    await seed(3000, [other]);
    const repo = t.s.repos.fts!;
    repo.kept.floor = 20;
    repo.kept.workerFromNotes = 0; // the worker's reads, declining included
    expect(await repo.kept.build(t.tenantId, Infinity)).toBe(true);
    await expectSameAsFts5('interleaved');
    await expectSameAsFts5('the other tenant, not kept', other);
    await t.s.nodes.create(other, { title: 'w7 w8', content: 'w7' });
    await t.s.nodes.create(t.tenantId, { title: 'w7 w9', content: 'w8' });
    await expectSameAsFts5('interleaved, after writes');
    // The change log holds nothing the kept lists have taken in, and nothing for a tenant not kept.
    const logged = (id: string) => changesSince(t.s.db, id, 0).seqs.length;
    expect(logged(t.tenantId)).toBe(0);
    expect(logged(other)).toBe(0);

    // 60 notes (above the floor of 20), 30 of them before 6,000 of the others' and 30 after.
    const thin = (await t.s.tenants.create('thin')).tenant_id;
    for (let i = 0; i < 30; i++) await t.s.nodes.create(thin, { title: `w7 first ${i}`, content: 'w8' });
    await seed(6000, [other]);
    for (let i = 0; i < 30; i++) await t.s.nodes.create(thin, { title: `w7 last ${i}`, content: 'w8' });
    expect(await repo.kept.build(thin, Infinity)).toBe(false);
    expect(repo.kept.usable(thin)).toBeNull();
    // A declined tenant, too thin or under the floor, is not tried again until it writes.
    const tiny = (await t.s.tenants.create('tiny')).tenant_id;
    for (let i = 0; i < 5; i++) await t.s.nodes.create(tiny, { title: `w7 ${i}`, content: 'w8' });
    expect(await repo.kept.build(tiny, Infinity)).toBe(false);
    for (const id of [thin, tiny]) {
      expect(repo.kept.stale(id)).toBe(false);
      await t.s.nodes.create(id, { title: 'w7 again', content: 'w8' });
      expect(repo.kept.stale(id)).toBe(true);
      expect(logged(id)).toBe(0);
    }
  });

  it("are read again for a small tenant under steady writes without waiting for quiet, and not at all when turned off", async () => {
    await seed(1000);
    const repo = t.s.repos.fts!;
    repo.kept.floor = 20;
    const { KeywordWarmer } = await import('../../src/services/nodes/keyword-warmer.js');
    const warmer = new KeywordWarmer(repo, async () => [t.tenantId], t.log);
    expect(await warmer.keep(t.tenantId)).toBe(true);
    for (let i = 0; i < 300; i++) await t.s.nodes.create(t.tenantId, { title: `w7 fresh ${i}`, content: words() });
    expect(repo.kept.stale(t.tenantId, 0.25)).toBe(true);
    expect(repo.keywords.quietFor(t.tenantId)).toBeLessThan(1000);
    expect(await warmer.refresh()).toBeGreaterThanOrEqual(1);
    expect(repo.kept.stale(t.tenantId, 0.25)).toBe(false);
    await expectSameAsFts5('read again under writes');
    const off = new KeywordWarmer(repo, async () => [t.tenantId], t.log, { keepInMemory: false });
    expect(await off.keep(t.tenantId)).toBe(false);
  });
});
