// GET /graph, /graph-health/history and /graph-health/inbox through the real app and SQLite.
import { raw } from '../helpers/raw.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, expectProblem, type TestApp } from '../helpers/app.js';
import { createNode, setLinks } from './helpers.js';

const DAY = 86_400_000;
let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

async function get<T = any>(path: string, auth?: string): Promise<T> {
  const res = await t.req('GET', '/api/v1' + path, undefined, auth);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
}

describe('GET /graph', () => {
  it('returns nodes with degree, PARA items and tags, and each link once', async () => {
    const para = (await (await t.req('POST', '/api/v1/para', { category: 'projects', label: 'Garden' })).json()) as { id: string };
    const a = await createNode(t, { title: 'A', tags: ['x', 'y'], para_item_ids: [para.id] });
    const b = await createNode(t, { title: 'B', status: 'validated' });
    const c = await createNode(t, { title: 'C' });
    await setLinks(t, a, [{ target_id: b, type: 'supports' }, { target_id: c, type: 'related' }]);
    const g = await get('/graph');
    expect(g.total_nodes).toBe(3);
    expect(g.total_links).toBe(2);
    expect(g.truncated).toBe(false);
    const byId = Object.fromEntries(g.nodes.map((n: any) => [n.id, n]));
    expect(byId[a]).toMatchObject({ title: 'A', status: 'raw', tags: ['x', 'y'], para_item_ids: [para.id], degree: 2 });
    expect(byId[b]).toMatchObject({ status: 'validated', degree: 1, para_item_ids: [] });
    expect(g.links).toHaveLength(2);
    const pairs = g.links.map((l: any) => [l.source, l.target].sort().join('-')).sort();
    expect(pairs).toEqual([[a, b].sort().join('-'), [a, c].sort().join('-')].sort());
  });

  it('caps nodes to the most recently updated and keeps only links between them', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(await createNode(t, { title: `N${i}` }));
      t.clock.advance(1000);
    }
    await setLinks(t, ids[0], [{ target_id: ids[3], type: 'related' }]);
    await setLinks(t, ids[2], [{ target_id: ids[1], type: 'related' }]);
    // Linking updates nothing on the nodes; N3 and N2 are the newest two.
    const g = await get('/graph?limit=2');
    expect(g.nodes.map((n: any) => n.title).sort()).toEqual(['N2', 'N3']);
    expect(g.links).toEqual([]);
    expect(g.truncated).toBe(true);
    expect(g.nodes.find((n: any) => n.title === 'N3').degree).toBe(1);
  });

  it('shows only the caller tenant, and rejects a bad limit with problem+json', async () => {
    await createNode(t, { title: 'mine' });
    const other = await t.tenant('beta');
    await createNode(t, { title: 'theirs' }, other.auth);
    expect((await get('/graph')).nodes.map((n: any) => n.title)).toEqual(['mine']);
    expect((await get('/graph', other.auth)).nodes.map((n: any) => n.title)).toEqual(['theirs']);
    await expectProblem(await t.req('GET', '/api/v1/graph?limit=0'), 400, 'validation_failed');
    await expectProblem(await t.req('GET', '/api/v1/graph?limit=999999'), 400, 'validation_failed');
    await expectProblem(await t.req('GET', '/api/v1/graph?bogus=1'), 400, 'validation_failed');
  });
});

describe('GET /graph-health/history', () => {
  it('writes one snapshot per day and returns the window oldest first', async () => {
    await createNode(t, { title: 'one', status: 'validated' });
    const d1 = await get('/graph-health/history?days=7');
    expect(d1.days).toHaveLength(1);
    expect(d1.days[0]).toMatchObject({ total_nodes: 1, validated_nodes: 1, orphan_nodes: 1, failed_captures: 0 });
    await createNode(t, { title: 'two' });
    // A later read the same day refreshes today's row rather than adding one.
    expect((await get('/graph-health/history?days=7')).days).toHaveLength(1);
    t.clock.advance(DAY);
    await createNode(t, { title: 'three' });
    const d2 = await get('/graph-health/history?days=7');
    expect(d2.days.map((d: any) => d.total_nodes)).toEqual([2, 3]);
    expect(d2.days[0].day < d2.days[1].day).toBe(true);
    const rows = await raw(t.s.db).prepare('SELECT count(*) FROM graph_health_daily WHERE tenant_id = ?').pluck().get(t.tenantId);
    expect(rows).toBe(2);
    // Outside the window: only today.
    t.clock.advance(10 * DAY);
    expect((await get('/graph-health/history?days=3')).days).toHaveLength(1);
    await expectProblem(await t.req('GET', '/api/v1/graph-health/history?days=0'), 400, 'validation_failed');
    // Another tenant sees none of it.
    const other = await t.tenant('beta');
    expect((await get('/graph-health/history?days=30', other.auth)).days).toEqual([expect.objectContaining({ total_nodes: 0 })]);
  });
});

describe('GET /graph-health/inbox', () => {
  it('lists failed captures, orphans, stale raw nodes and automatic filings with counts', async () => {
    const para = (await (await t.req('POST', '/api/v1/para', { category: 'areas', label: 'Health' })).json()) as { id: string };
    const old = await createNode(t, { title: 'Old raw note' });
    t.clock.advance(100 * DAY);
    const filed = await createNode(t, { title: 'Filed by hand', para_item_ids: [para.id] });
    const auto = await createNode(t, { title: 'Filed automatically' });
    await raw(t.s.db).prepare(`INSERT INTO node_para (tenant_id, node_id, para_item_id, source, score, method, created_at) VALUES (?, ?, ?, 'auto', 0.62, 'centroid', ?)`)
      .run(t.tenantId, auto, para.id, new Date(t.clock.now()).toISOString());
    const now = new Date(t.clock.now()).toISOString();
    await raw(t.s.db).prepare(`INSERT INTO captures (id, tenant_id, status, title, url, content_type, source, error, created_at, updated_at) VALUES ('cap1', ?, 'failed', 'Broken page', 'https://example.org/x', 'link', 'api', 'fetch failed: 404', ?, ?)`)
      .run(t.tenantId, now, now);
    const inbox = await get('/graph-health/inbox');
    expect(inbox.counts).toEqual({ failed_captures: 1, orphans: 1, stale: 1, auto_filings: 1 });
    expect(inbox.failed_captures).toEqual([expect.objectContaining({ id: 'cap1', error: 'fetch failed: 404' })]);
    expect(inbox.orphans.map((n: any) => n.id)).toEqual([old]);
    expect(inbox.stale.map((n: any) => n.id)).toEqual([old]);
    expect(inbox.auto_filings).toEqual([{ node_id: auto, title: 'Filed automatically', para_item_id: para.id, para_label: 'Health', score: 0.62, method: 'centroid' }]);
    expect(inbox.orphans.map((n: any) => n.id)).not.toContain(filed);
    // Confirming the filing (sending it back as the user's) empties that section.
    expect((await t.req('PATCH', `/api/v1/nodes/${auto}`, { para_item_ids: [para.id] })).status).toBe(200);
    expect((await get('/graph-health/inbox')).counts.auto_filings).toBe(0);
    expect((await get('/graph-health/inbox', (await t.tenant('beta')).auth)).counts).toEqual({ failed_captures: 0, orphans: 0, stale: 0, auto_filings: 0 });
  });
});
