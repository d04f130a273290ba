// One test per row of the contract's PARA status table, plus DELETE and the tree.
import { raw } from '../helpers/raw.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(async () => {
  await t.close();
});

const item = async (category: string, label: string) => (await t.req('POST', '/api/v1/para', { category, label })).json();
const post = (id: string, action: string) => t.req('POST', `/api/v1/para/${id}/${action}`);
const ok = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
};
const node = async (title: string, para_item_ids: string[]) => {
  const res = await t.req('POST', '/api/v1/nodes', { title, para_item_ids });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).id as string;
};
const paraOf = async (id: string) => (await (await t.req('GET', `/api/v1/nodes/${id}`)).json()).para_item_ids as string[];
const orphans = async () => ((await (await t.req('GET', '/api/v1/nodes?orphan=true')).json()).data as { id: string }[]).map((n) => n.id).sort();

describe('PARA status table', () => {
  it('active → archive → archived, hiding the item from its nodes; unarchive → active restores exactly those', async () => {
    const p = await item('projects', 'Launch');
    const q = await item('areas', 'Marketing');
    const n1 = await node('only in launch', [p.id]);
    const n2 = await node('in both', [p.id, q.id]);
    const n3 = await node('only in marketing', [q.id]);
    const n4 = await node('in nothing', []);

    const archived = await ok(await post(p.id, 'archive'));
    expect(archived).toMatchObject({ id: p.id, status: 'archived' });
    expect(await paraOf(n1)).toEqual([]);
    expect(await paraOf(n2)).toEqual([q.id]);
    expect(await paraOf(n3)).toEqual([q.id]);
    expect(await orphans()).toEqual([n1, n4].sort());
    expect((await (await t.req('GET', `/api/v1/nodes?para_item_id=${p.id}`)).json()).data).toEqual([]);

    // While archived the user rearranges n2; the hidden association still comes back.
    await ok(await t.req('PATCH', `/api/v1/nodes/${n2}`, { para_item_ids: [] }));
    expect(await paraOf(n2)).toEqual([]);

    const restored = await ok(await post(p.id, 'unarchive'));
    expect(restored).toMatchObject({ id: p.id, status: 'active' });
    expect(await paraOf(n1)).toEqual([p.id]);
    expect(await paraOf(n2)).toEqual([p.id]);
    expect(await paraOf(n3)).toEqual([q.id]);
    expect(await paraOf(n4)).toEqual([]);
    expect(await orphans()).toEqual([n4]);
    // The restored associations are still the user's own.
    const rows = await raw(t.s.db).prepare('SELECT node_id, source, archived FROM node_para WHERE para_item_id = ? ORDER BY node_id').all(p.id);
    expect(rows).toEqual([n1, n2].sort().map((id) => ({ node_id: id, source: 'user', archived: 0 })));
  });

  it('archived → archive again is idempotent: same status, associations untouched', async () => {
    const p = await item('areas', 'Health');
    const n = await node('run', [p.id]);
    const first = await ok(await post(p.id, 'archive'));
    t.clock.advance(5000);
    const second = await ok(await post(p.id, 'archive'));
    expect(second).toEqual(first);
    await ok(await post(p.id, 'unarchive'));
    expect(await paraOf(n)).toEqual([p.id]);
  });

  it('active → unarchive again is idempotent', async () => {
    const p = await item('resources', 'Recipes');
    const n = await node('bread', [p.id]);
    const first = await ok(await post(p.id, 'unarchive'));
    expect(first).toEqual(p);
    expect(await ok(await post(p.id, 'unarchive'))).toEqual(p);
    expect(await paraOf(n)).toEqual([p.id]);
  });

  it('project → complete → completed; completed → undo-complete → active', async () => {
    const p = await item('projects', 'Launch');
    const n = await node('plan', [p.id]);
    expect(await ok(await post(p.id, 'complete'))).toMatchObject({ status: 'completed' });
    expect((await (await t.req('GET', `/api/v1/para/${p.id}`)).json()).status).toBe('completed');
    expect(await paraOf(n)).toEqual([p.id]); // completing keeps the project's nodes
    expect((await (await t.req('GET', '/api/v1/para?status=completed')).json()).data.map((i: { id: string }) => i.id)).toEqual([p.id]);
    expect(await ok(await post(p.id, 'undo-complete'))).toMatchObject({ status: 'active' });
  });

  it('complete and undo-complete answer 409 for non-projects and for projects in the wrong state', async () => {
    const area = await item('areas', 'Health');
    const res = await item('resources', 'Recipes');
    for (const i of [area, res]) {
      await expectProblem(await post(i.id, 'complete'), 409, 'conflict');
      await expectProblem(await post(i.id, 'undo-complete'), 409, 'conflict');
    }
    const p = await item('projects', 'Launch');
    await expectProblem(await post(p.id, 'undo-complete'), 409, 'conflict'); // active, not completed
    await ok(await post(p.id, 'complete'));
    await expectProblem(await post(p.id, 'complete'), 409, 'conflict'); // already completed
    await ok(await post(p.id, 'archive'));
    await expectProblem(await post(p.id, 'complete'), 409, 'conflict');
    await expectProblem(await post(p.id, 'undo-complete'), 409, 'conflict');
    expect((await (await t.req('GET', `/api/v1/para/${area.id}`)).json()).status).toBe('active');
    await expectProblem(await post('par_missing', 'complete'), 404, 'not_found');
  });

  it('any → PATCH status → the given status, with the same side effects as the lifecycle calls', async () => {
    const p = await item('projects', 'Launch');
    const n = await node('plan', [p.id]);
    const patch = async (status: string) => ok(await t.req('PATCH', `/api/v1/para/${p.id}`, { status }));

    expect(await patch('archived')).toMatchObject({ status: 'archived' });
    expect(await paraOf(n)).toEqual([]);
    expect(await patch('completed')).toMatchObject({ status: 'completed' });
    expect(await paraOf(n)).toEqual([p.id]);
    expect(await patch('archived')).toMatchObject({ status: 'archived' });
    expect(await patch('active')).toMatchObject({ status: 'active' });
    expect(await paraOf(n)).toEqual([p.id]);
    expect(await patch('completed')).toMatchObject({ status: 'completed' });
    expect(await patch('active')).toMatchObject({ status: 'active' });
    expect(await patch('active')).toMatchObject({ status: 'active' });
    // Label and status together.
    expect(await ok(await t.req('PATCH', `/api/v1/para/${p.id}`, { status: 'archived', label: 'Old launch' }))).toMatchObject({
      status: 'archived', label: 'Old launch', slug: 'old-launch',
    });

    const area = await item('areas', 'Health');
    await expectProblem(await t.req('PATCH', `/api/v1/para/${area.id}`, { status: 'completed' }), 409, 'conflict');
    expect(await ok(await t.req('PATCH', `/api/v1/para/${area.id}`, { status: 'archived' }))).toMatchObject({ status: 'archived' });
  });

  it('DELETE is always 410 gone: existing, archived, unknown and foreign ids alike, and deletes nothing', async () => {
    const p = await item('projects', 'Launch');
    const n = await node('plan', [p.id]);
    await expectProblem(await t.req('DELETE', `/api/v1/para/${p.id}`), 410, 'gone');
    await expectProblem(await t.req('DELETE', '/api/v1/para/par_does_not_exist'), 410, 'gone');
    await expectProblem(await t.req('DELETE', `/api/v1/para/${'x'.repeat(300)}`), 410, 'gone');
    await expectProblem(await t.req('DELETE', `/api/v1/para/${p.id}`, undefined, (await t.tenant('beta')).auth), 410, 'gone');
    await ok(await post(p.id, 'archive'));
    await expectProblem(await t.req('DELETE', `/api/v1/para/${p.id}`), 410, 'gone');
    await ok(await post(p.id, 'unarchive'));
    expect((await (await t.req('GET', `/api/v1/para/${p.id}`)).json()).status).toBe('active');
    expect(await paraOf(n)).toEqual([p.id]);
  });
});

describe('GET /para/tree', () => {
  it('groups items by category with node counts; archived items only on request', async () => {
    const p = await item('projects', 'Launch');
    const done = await item('projects', 'Website');
    const a = await item('areas', 'Health');
    const old = await item('resources', 'Old recipes');
    await node('one', [p.id]);
    await node('two', [p.id, a.id]);
    await node('three', [old.id]);
    await node('orphan', []);
    await ok(await post(done.id, 'complete'));
    await ok(await post(old.id, 'archive'));

    const tree = await ok(await t.req('GET', '/api/v1/para/tree'));
    expect(Object.keys(tree).sort()).toEqual(['areas', 'projects', 'resources']);
    expect(tree.projects.map((i: { label: string; node_count: number; status: string }) => [i.label, i.node_count, i.status])).toEqual([
      ['Launch', 2, 'active'],
      ['Website', 0, 'completed'],
    ]);
    expect(tree.areas).toEqual([{ ...a, node_count: 1 }]);
    expect(tree.resources).toEqual([]);

    const all = await ok(await t.req('GET', '/api/v1/para/tree?include_archived=true'));
    expect(all.resources.map((i: { id: string; node_count: number; status: string }) => [i.id, i.node_count, i.status])).toEqual([
      [old.id, 1, 'archived'],
    ]);
    await expectProblem(await t.req('GET', '/api/v1/para/tree?include_archived=yes'), 400, 'validation_failed');
  });
});
