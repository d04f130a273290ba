import { raw } from '../helpers/raw.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { iso } from '../../src/clock.js';
import { GraphHealthRepo, WITH_STALE_RECENT_SIDE_SQL, STALE_SQL } from '../../src/repos/graph-health.repo.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { createNode, health, setLinks } from './helpers.js';
import { TEST_BACKEND } from '../helpers/test-database.js';

const DAY = 86_400_000;

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

/** Captures arrive through the captures service; these counters come from triggers on the table. */
async function insertCapture(id: string, status: string, tenantId = t.tenantId) {
  const now = iso(t.clock.now());
  await raw(t.s.db)
    .prepare(`INSERT INTO captures (id, tenant_id, status, title, content_type, source, created_at, updated_at) VALUES (?, ?, ?, 'c', 'note', 'api', ?, ?)`)
    .run(id, tenantId, status, now, now);
}
const setCaptureStatus = async (id: string, status: string) => await raw(t.s.db).prepare('UPDATE captures SET status = ? WHERE id = ?').run(status, id);

describe('GET /graph-health', () => {
  it('starts at zero', async () => {
    expect(await health(t)).toEqual({
      total_nodes: 0, validated_nodes: 0, total_captures: 0, pending_captures: 0, total_links: 0, stale_nodes: 0,
    });
  });

  it('follows node creates, status changes and deletes', async () => {
    const a = await createNode(t, { title: 'A' });
    const b = await createNode(t, { title: 'B', status: 'validated' });
    await createNode(t, { title: 'C', status: 'dismissed' });
    expect(await health(t)).toMatchObject({ total_nodes: 3, validated_nodes: 1 });

    await t.req('PATCH', `/api/v1/nodes/${a}`, { status: 'validated' });
    expect(await health(t)).toMatchObject({ total_nodes: 3, validated_nodes: 2 });
    await t.req('PATCH', `/api/v1/nodes/${a}`, { title: 'A again' }); // no status change
    expect(await health(t)).toMatchObject({ validated_nodes: 2 });
    await t.req('PATCH', `/api/v1/nodes/${b}`, { status: 'raw' });
    expect(await health(t)).toMatchObject({ validated_nodes: 1 });
    expect((await t.req('DELETE', `/api/v1/nodes/${a}`)).status).toBe(204);
    expect(await health(t)).toMatchObject({ total_nodes: 2, validated_nodes: 0 });
  });

  it('counts a link and its reverse once, through replacements, type changes and node deletes', async () => {
    const [a, b, c, d] = [await createNode(t, { title: 'A' }), await createNode(t, { title: 'B' }), await createNode(t, { title: 'C' }), await createNode(t, { title: 'D' })];
    await setLinks(t, a, [{ target_id: b, type: 'references' }, { target_id: c, type: 'related' }]);
    expect((await health(t)).total_links).toBe(2);
    await setLinks(t, a, [{ target_id: b, type: 'supports' }, { target_id: c, type: 'related' }]); // type change only
    expect((await health(t)).total_links).toBe(2);
    await setLinks(t, d, [{ target_id: a, type: 'related' }, { target_id: b, type: 'related' }]);
    expect((await health(t)).total_links).toBe(4);
    await setLinks(t, a, [{ target_id: c, type: 'related' }]); // drops a-b and d-a
    expect((await health(t)).total_links).toBe(2);
    expect((await t.req('DELETE', `/api/v1/nodes/${c}`)).status).toBe(204);
    expect((await health(t)).total_links).toBe(1);
    const rows = await raw(t.s.db).prepare('SELECT count(*) FROM links WHERE tenant_id = ?').pluck().get(t.tenantId);
    expect(rows).toBe(2);
  });

  it('counts captures and the pending/processing ones', async () => {
    await insertCapture('cap_1', 'pending');
    await insertCapture('cap_2', 'processing');
    await insertCapture('cap_3', 'failed');
    expect(await health(t)).toMatchObject({ total_captures: 3, pending_captures: 2 });
    await setCaptureStatus('cap_1', 'completed');
    expect(await health(t)).toMatchObject({ total_captures: 3, pending_captures: 1 });
    await raw(t.s.db).prepare('DELETE FROM captures WHERE id = ?').run('cap_2');
    expect(await health(t)).toMatchObject({ total_captures: 2, pending_captures: 0 });
  });

  it('counts stale nodes: not validated and not updated for more than 90 days (by the injected clock)', async () => {
    const raw = await createNode(t, { title: 'old raw' });
    const validated = await createNode(t, { title: 'old validated', status: 'validated' });
    await createNode(t, { title: 'old dismissed', status: 'dismissed' });
    t.clock.advance(90 * DAY);
    expect((await health(t)).stale_nodes).toBe(0); // exactly 90 days is not older than 90 days
    t.clock.advance(1);
    expect((await health(t)).stale_nodes).toBe(2);

    await createNode(t, { title: 'fresh raw' });
    await t.req('PATCH', `/api/v1/nodes/${raw}`, { title: 'old raw, touched' });
    expect((await health(t)).stale_nodes).toBe(1);
    await t.req('PATCH', `/api/v1/nodes/${validated}`, { status: 'raw' }); // un-validating updates it: fresh
    expect((await health(t)).stale_nodes).toBe(1);
    t.clock.advance(91 * DAY);
    expect((await health(t)).stale_nodes).toBe(4);
  });

  // SQLite's query plan (EXPLAIN QUERY PLAN): the PostgreSQL tier has its own indexes.
  it.skipIf(TEST_BACKEND === 'postgres')('counts stale nodes through the (tenant, status, updated_at) index, not a table scan', async () => {
    for (const sql of [STALE_SQL, WITH_STALE_RECENT_SIDE_SQL]) {
      const plan = ((await raw(t.s.db).prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ t: 'x', before: 'y' })) as Array<{ detail: string }>).map((r) => r.detail);
      expect(plan.filter((d) => d.includes('nodes_tenant_status_updated')).length).toBe(2);
      expect(plan.some((d) => /^SCAN nodes\b/.test(d))).toBe(false);
    }
  });

  // The count goes over the shorter index range, older or newer than the window (the other
  // one from the tenant's open-node counter); the answer must not depend on which it took.
  it('counts stale nodes the same from either side of the window, as the shorter side changes', async () => {
    const repo = new GraphHealthRepo(t.s.db as never);
    const direct = async (before: string) => await raw(t.s.db).prepare(STALE_SQL).pluck().get({ t: t.tenantId, before }) as number;
    const check = async () => {
      const before = iso(t.clock.now() - 90 * DAY);
      for (let i = 0; i < 2; i++) expect(await repo.staleCount(t.tenantId, before)).toBe(await direct(before)); // the second call may take the other side
    };
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await createNode(t, { title: `old ${i}`, status: i === 3 ? 'dismissed' : 'raw' }));
    await createNode(t, { title: 'validated', status: 'validated' });
    await check(); // none stale yet: the recent side holds them all
    t.clock.advance(91 * DAY);
    await check(); // all four stale
    for (let i = 0; i < 3; i++) await createNode(t, { title: `new ${i}` });
    await check();
    for (const id of ids.slice(0, 3)) await t.req('PATCH', `/api/v1/nodes/${id}`, { title: 'touched' });
    await check(); // one stale of seven open
    expect(await repo.staleCount(t.tenantId, iso(t.clock.now() - 90 * DAY))).toBe(1);
    expect(await repo.staleCount('ten_none', iso(t.clock.now()))).toBe(0);
  });

  it('is per tenant', async () => {
    const beta = await t.tenant('beta');
    const a = await createNode(t, { title: 'A', status: 'validated' });
    const b = await createNode(t, { title: 'B' });
    await setLinks(t, a, [{ target_id: b, type: 'related' }]);
    await insertCapture('cap_a', 'pending');
    await createNode(t, { title: 'beta node' }, beta.auth);
    expect(await health(t, beta.auth)).toEqual({
      total_nodes: 1, validated_nodes: 0, total_captures: 0, pending_captures: 0, total_links: 0, stale_nodes: 0,
    });
    expect(await health(t)).toMatchObject({ total_nodes: 2, validated_nodes: 1, total_captures: 1, pending_captures: 1, total_links: 1 });
  });
});
