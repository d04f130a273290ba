import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { createNode, setLinks } from './helpers.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

async function related(id: string, qs = '', auth?: string) {
  const res = await t.req('GET', `/api/v1/nodes/${id}/related${qs}`, undefined, auth);
  expect(res.status).toBe(200);
  return ((await res.json()) as { nodes: Array<{ id: string; title: string; summary: string; relationship_type: string }> }).nodes;
}

describe('GET /nodes/:id/related', () => {
  it('lists 1-hop neighbours with id, title, summary and the relationship type, ordered by type, title, id', async () => {
    const hub = await createNode(t, { title: 'Hub' });
    const zeta = await createNode(t, { title: 'Zeta', summary: 'last letter' });
    const beta = await createNode(t, { title: 'Beta', summary: 'second letter' });
    const alpha = await createNode(t, { title: 'Alpha', summary: 'first letter' });
    const same1 = await createNode(t, { title: 'Same' });
    const same2 = await createNode(t, { title: 'Same' });
    const far = await createNode(t, { title: 'Two hops away' });
    await setLinks(t, hub, [
      { target_id: zeta, type: 'related' },
      { target_id: beta, type: 'supports' },
      { target_id: alpha, type: 'related' },
      { target_id: same2, type: 'references' },
      { target_id: same1, type: 'references' },
    ]);
    await setLinks(t, zeta, [{ target_id: hub, type: 'related' }, { target_id: far, type: 'related' }]);

    expect(await related(hub)).toEqual([
      { id: same1, title: 'Same', summary: '', relationship_type: 'references' },
      { id: same2, title: 'Same', summary: '', relationship_type: 'references' },
      { id: alpha, title: 'Alpha', summary: 'first letter', relationship_type: 'related' },
      { id: zeta, title: 'Zeta', summary: 'last letter', relationship_type: 'related' },
      { id: beta, title: 'Beta', summary: 'second letter', relationship_type: 'supports' },
    ]);
    // The reverse side sees the inverse type.
    expect(await related(beta)).toEqual([{ id: hub, title: 'Hub', summary: '', relationship_type: 'supported_by' }]);
    expect(await related(far)).toEqual([{ id: zeta, title: 'Zeta', summary: 'last letter', relationship_type: 'related' }]);
  });

  it('honours limit (default 50) and answers an unlinked node with an empty list', async () => {
    const hub = await createNode(t, { title: 'Hub' });
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) ids.push(await createNode(t, { title: `Leaf ${String(i).padStart(2, '0')}` }));
    await setLinks(t, hub, ids.map((id) => ({ target_id: id, type: 'has_part' })));
    expect((await related(hub)).length).toBe(50);
    expect((await related(hub, '?limit=3')).map((n) => n.title)).toEqual(['Leaf 00', 'Leaf 01', 'Leaf 02']);
    expect((await related(hub, '?limit=500')).length).toBe(55);
    expect(await related(await createNode(t, { title: 'Alone' }))).toEqual([]);
  });

  it('rejects a limit outside 1–500 with 400', async () => {
    const id = await createNode(t, { title: 'X' });
    for (const bad of ['0', '501', '-1', '2.5', 'ten']) {
      await expectProblem(await t.req('GET', `/api/v1/nodes/${id}/related?limit=${bad}`), 400, 'validation_failed');
    }
  });

  it("404 for an unknown node or another tenant's node", async () => {
    await expectProblem(await t.req('GET', '/api/v1/nodes/nod_unknown/related'), 404, 'not_found');
    const beta = await t.tenant('beta');
    const theirs = await createNode(t, { title: 'Theirs' }, beta.auth);
    await expectProblem(await t.req('GET', `/api/v1/nodes/${theirs}/related`), 404, 'not_found');
  });

  it('drops a deleted neighbour', async () => {
    const a = await createNode(t, { title: 'A' });
    const b = await createNode(t, { title: 'B' });
    const c = await createNode(t, { title: 'C' });
    await setLinks(t, a, [{ target_id: b, type: 'related' }, { target_id: c, type: 'related' }]);
    expect((await t.req('DELETE', `/api/v1/nodes/${b}`)).status).toBe(204);
    expect((await related(a)).map((n) => n.id)).toEqual([c]);
  });
});
