import { raw } from '../helpers/raw.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => (t = await makeTestApp()));
afterEach(() => t.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('nodes CRUD', () => {
  it('creates a node with defaults and reads it back', async () => {
    const res = await t.req('POST', '/api/v1/nodes', { title: 'Sourdough starter', content: '# Feed daily\nflour and water', tags: ['baking', 'baking', 'bread'] });
    expect(res.status).toBe(201);
    const n = await res.json();
    expect(n).toMatchObject({ title: 'Sourdough starter', body_markdown: '# Feed daily\nflour and water', summary: '', status: 'raw', tags: ['baking', 'bread'], para_item_ids: [] });
    expect(n.id).toMatch(/^nod_/);
    expect(n.created_at).toMatch(ISO);
    expect(n.updated_at).toBe(n.created_at);
    expect(n).not.toHaveProperty('content');
    const got = await (await t.req('GET', `/api/v1/nodes/${n.id}`)).json();
    expect(got).toEqual({ ...n, annotations: [] }); // GET carries the node's highlights
  });

  it('patches fields and bumps updated_at', async () => {
    const n = await (await t.req('POST', '/api/v1/nodes', { title: 'a' })).json();
    t.clock.advance(5000);
    const res = await t.req('PATCH', `/api/v1/nodes/${n.id}`, { content: 'new body', status: 'validated', summary: 's', tags: ['x'], title: 'b' });
    expect(res.status).toBe(200);
    const p = await res.json();
    expect(p).toMatchObject({ title: 'b', body_markdown: 'new body', status: 'validated', summary: 's', tags: ['x'] });
    expect(Date.parse(p.updated_at)).toBeGreaterThan(Date.parse(n.updated_at));
    expect(p.created_at).toBe(n.created_at);
  });

  it('deletes with 204, then 404; its vector goes too', async () => {
    const n = await (await t.req('POST', '/api/v1/nodes', { title: 'gone soon' })).json();
    await t.s.queue.start();
    await t.s.queue.idle();
    expect(await t.s.vectors.get(t.tenantId, n.id)).not.toBeNull();
    expect((await t.req('DELETE', `/api/v1/nodes/${n.id}`)).status).toBe(204);
    await expectProblem(await t.req('GET', `/api/v1/nodes/${n.id}`), 404, 'not_found');
    await expectProblem(await t.req('DELETE', `/api/v1/nodes/${n.id}`), 404, 'not_found');
    expect(await raw(t.s.db).prepare('SELECT count(*) FROM node_vectors').pluck().get()).toBe(0);
  });

  it.each([
    [{}, 'title'],
    [{ title: '' }, 'title'],
    [{ title: 'x'.repeat(501) }, 'title'],
    [{ title: 'ok', tags: [1] }, 'tags.0'],
    [{ title: 'ok', tags: 'a' }, 'tags'],
    [{ title: 'ok', status: 'done' }, 'status'],
    [{ title: 'ok', body_markdown: 'x' }, ''],
    [{ title: 'ok', para_item_ids: ['par_nope'] }, 'para_item_ids.0'],
  ])('rejects %j with 400 and writes nothing', async (body, path) => {
    const p = await expectProblem(await t.req('POST', '/api/v1/nodes', body), 400, 'validation_failed');
    if (path) expect(p.errors?.map((e) => e.path)).toContain(path);
    expect(await raw(t.s.db).prepare('SELECT count(*) FROM nodes').pluck().get()).toBe(0);
  });

  it('rejects a bad patch and leaves the node unchanged', async () => {
    const n = await (await t.req('POST', '/api/v1/nodes', { title: 'keep' })).json();
    await expectProblem(await t.req('PATCH', `/api/v1/nodes/${n.id}`, { title: '' }), 400, 'validation_failed');
    await expectProblem(await t.req('PATCH', `/api/v1/nodes/${n.id}`, { status: 'nope' }), 400, 'validation_failed');
    await expectProblem(await t.req('PATCH', `/api/v1/nodes/${n.id}`, { color: 'red' }), 400, 'validation_failed');
    await expectProblem(await t.req('PATCH', `/api/v1/nodes/${n.id}`, { title: 'x', para_item_ids: ['par_x'] }), 400, 'validation_failed');
    expect(await (await t.req('GET', `/api/v1/nodes/${n.id}`)).json()).toEqual({ ...n, annotations: [] });
  });

  it('another tenant gets 404 for every node operation and cannot attach its PARA ids', async () => {
    const n = await (await t.req('POST', '/api/v1/nodes', { title: 'private' })).json();
    const b = await t.tenant('beta');
    await expectProblem(await t.req('GET', `/api/v1/nodes/${n.id}`, undefined, b.auth), 404, 'not_found');
    await expectProblem(await t.req('PATCH', `/api/v1/nodes/${n.id}`, { title: 'x' }, b.auth), 404, 'not_found');
    await expectProblem(await t.req('DELETE', `/api/v1/nodes/${n.id}`, undefined, b.auth), 404, 'not_found');
    const item = await raw(t.s.db).prepare(
      "INSERT INTO para_items (id, tenant_id, category, label, slug, created_at, updated_at) VALUES ('par_a', ?, 'areas', 'A', 'a', 'x', 'x') RETURNING id",
    ).pluck().get(t.tenantId);
    await expectProblem(await t.req('POST', '/api/v1/nodes', { title: 'y', para_item_ids: [item] }, b.auth), 400, 'validation_failed');
    const ok = await t.req('POST', '/api/v1/nodes', { title: 'y', para_item_ids: [item] });
    expect((await ok.json()).para_item_ids).toEqual(['par_a']);
  });
});
