import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
  await t.s.queue.start();
});
afterEach(() => t.close());

async function create(title: string, auth?: string): Promise<string> {
  const res = await t.req('POST', '/api/v1/nodes', { title }, auth);
  expect(res.status).toBe(201);
  return (await res.json()).id;
}
async function semantic(query: string, auth?: string): Promise<{ ids: string[]; total: number }> {
  const res = await t.req('GET', `/api/v1/nodes?mode=semantic&query=${encodeURIComponent(query)}`, undefined, auth);
  expect(res.status).toBe(200);
  const body = await res.json();
  return { ids: body.data.map((n: { id: string }) => n.id), total: body.total };
}

describe('semantic search over the in-memory quantised index', () => {
  it('follows creates, edits and deletes after the index is loaded', async () => {
    const a = await create('alpine glacier hiking routes');
    const b = await create('sourdough starter feeding schedule');
    await t.s.queue.idle();
    expect((await semantic('alpine glacier hiking routes')).ids[0]).toBe(a); // loads the index

    const c = await create('violin bow rehair');
    await t.s.queue.idle();
    expect((await semantic('violin bow rehair')).ids[0]).toBe(c); // arrived through afterEmbed

    expect((await t.req('PATCH', `/api/v1/nodes/${b}`, { title: 'quantum error correction codes' })).status).toBe(200);
    await t.s.queue.idle();
    expect((await semantic('quantum error correction codes')).ids[0]).toBe(b);

    expect((await t.req('DELETE', `/api/v1/nodes/${a}`)).status).toBe(204);
    const after = await semantic('alpine glacier hiking routes');
    expect(after.ids).not.toContain(a);
    expect(after.total).toBe(0); // the other notes are unrelated: under the model's floor
  });

  it('never lets a newer node inherit a deleted node’s vector', async () => {
    await create('sourdough starter feeding schedule');
    const a = await create('alpine glacier hiking routes'); // the highest seq: SQLite hands it out again
    await t.s.queue.idle();
    await semantic('anything'); // index loaded with a's vector
    expect((await t.req('DELETE', `/api/v1/nodes/${a}`)).status).toBe(204);
    await t.s.queue.stop(); // the new node gets no vector yet
    const d = await create('completely different words');
    const r = await semantic('alpine glacier hiking routes');
    expect(r.ids).not.toContain(d);
    expect(r.ids).not.toContain(a);
  });

  it('keeps each tenant to its own vectors', async () => {
    const beta = await t.tenant('beta');
    await create('alpine glacier hiking routes');
    const mine = await create('alpine glacier hiking routes', beta.auth);
    await t.s.queue.idle();
    const r = await semantic('alpine glacier hiking routes', beta.auth);
    expect(r.ids).toEqual([mine]);
  });
});
