import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { HYBRID_POOL } from '../../src/services/nodes/search.service.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
  await t.s.queue.start();
});
afterEach(() => t.close());

describe('hybrid candidate pool', () => {
  it('ranks the best HYBRID_POOL of each side and says when matches were left out', async () => {
    const n = HYBRID_POOL + 5;
    for (let i = 0; i < n; i++) await t.s.nodes.create(t.tenantId, { title: `kombucha batch ${i}`, content: `second fermentation note ${i}` });
    await t.s.queue.idle();
    const hybrid = await (await t.req('GET', '/api/v1/nodes?query=kombucha&per_page=100&page=2')).json();
    expect(hybrid).toMatchObject({ total_matches: n, coverage_capped: true, page: 2 });
    expect(hybrid.total).toBeLessThanOrEqual(2 * HYBRID_POOL);
    expect(hybrid.data).toHaveLength(100);
    const keyword = await (await t.req('GET', '/api/v1/nodes?query=kombucha&mode=keyword&per_page=100&page=3')).json();
    expect(keyword).toMatchObject({ total: n, total_matches: n, coverage_capped: false });
    expect(keyword.data).toHaveLength(5);
  });

  it('fuses with the keyword side leading and every hit carrying its provenance', async () => {
    const exact = (await t.s.nodes.create(t.tenantId, { title: 'Kombucha second fermentation', content: 'bottle with fruit for fizz' })).id;
    await t.s.nodes.create(t.tenantId, { title: 'Sourdough', content: 'a starter is a fermentation of flour and water' });
    await t.s.queue.idle();
    const r = await (await t.req('GET', '/api/v1/nodes?query=kombucha%20fermentation')).json();
    expect(r.data[0].id).toBe(exact);
    expect(r.data[0].match_provenance).toMatchObject({ keyword: true, semantic: true });
    expect(r.data[0].match_provenance.score).toBeGreaterThan(r.data[1].match_provenance.score);
    expect(r.data[0].match_provenance.score).toBeLessThanOrEqual(1);
  });
});
