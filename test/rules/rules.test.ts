import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, type TestApp } from '../helpers/app.js';
import { capturesApp, postCapture, settled } from '../captures/helpers.js';
import { startFeedServer, type FeedServer } from '../feeds/feed-server.js';
import { rawZip } from '../interop/zip-bytes.js';

let t: TestApp;
let fs: FeedServer;
beforeAll(async () => {
  fs = await startFeedServer();
});
afterAll(() => fs.close());
beforeEach(async () => {
  t = await capturesApp();
  fs.items.clear();
});
afterEach(() => t.close());

async function ok<T = any>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}
const rule = (body: Record<string, unknown>) => t.req('POST', '/api/v1/rules', body).then((r) => ok(r, 201));
const node = (id: string) => t.req('GET', `/api/v1/nodes/${id}`).then((r) => ok(r));
const mk = (title: string, tags: string[] = []) => t.req('POST', '/api/v1/nodes', { title, content: `${title} body`, tags }).then((r) => ok(r, 201));

describe('rules', () => {
  it('are created, listed in order, changed and deleted; bad input is a 400 that creates nothing; another tenant sees none', async () => {
    await expectProblem(await t.req('POST', '/api/v1/rules', { name: 'x', when: {}, then: { status: 'validated' } }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/rules', { name: 'x', when: { tag: 'a' }, then: {} }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/rules', { name: 'x', when: { tag: 'a' }, then: { status: 'great' } }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/rules', { name: 'x', when: { colour: 'red' }, then: { skip: true } }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/rules', { name: 'x', when: { tag: 'a' }, then: { para_item_id: 'par_nope' } }), 400, 'validation_failed');
    expect((await ok(await t.req('GET', '/api/v1/rules'))).data).toEqual([]);
    const b = await rule({ name: 'second', when: { tag: 'a' }, then: { add_tags: ['b'] } });
    const a = await rule({ name: 'first', when: { host: 'example.com' }, then: { status: 'validated' }, order: 1 });
    expect((await ok(await t.req('GET', '/api/v1/rules'))).data.map((r: { name: string }) => r.name)).toEqual(['first', 'second']);
    expect(await ok(await t.req('PATCH', `/api/v1/rules/${b.id}`, { order: 0 }))).toMatchObject({ order: 0 });
    expect((await ok(await t.req('GET', '/api/v1/rules'))).data.map((r: { id: string }) => r.id)).toEqual([b.id, a.id]);
    const other = await t.tenant('beta');
    for (const [m, p] of [['GET', `/api/v1/rules/${a.id}`], ['DELETE', `/api/v1/rules/${a.id}`], ['POST', `/api/v1/rules/${a.id}/dry-run`], ['POST', `/api/v1/rules/${a.id}/run`], ['GET', `/api/v1/rules/${a.id}/log`]] as const) {
      await expectProblem(await t.req(m, p, undefined, other.auth), 404, 'not_found');
    }
    expect((await t.req('DELETE', `/api/v1/rules/${a.id}`)).status).toBe(204);
    await expectProblem(await t.req('GET', `/api/v1/rules/${a.id}`), 404, 'not_found');
  });

  it("a dry run shows exactly what the real run then does; each action is logged and undoable", async () => {
    const area = await ok(await t.req('POST', '/api/v1/para', { category: 'areas', label: 'Soil' }), 201);
    const n1 = await mk('Compost heaps and worms');
    const n2 = await mk('Hot compost in winter', ['soil']);
    const n3 = await mk('Tomato varieties');
    const n4 = await mk('Compost tea', ['soil']);
    await t.req('PATCH', `/api/v1/nodes/${n4.id}`, { status: 'validated', para_item_ids: [area.id] }); // already as the rule wants
    const r = await rule({ name: 'compost → soil', when: { title_words: ['compost'] }, then: { add_tags: ['Soil', 'compost'], para_item_id: area.id, status: 'validated' } });

    const dry = await ok(await t.req('POST', `/api/v1/rules/${r.id}/dry-run`));
    expect(dry.dry_run).toBe(true);
    expect(dry.matched).toBe(3);
    expect(dry.changes.map((c: { node_id: string }) => c.node_id).sort()).toEqual([n1.id, n2.id, n4.id].sort());
    expect(dry.changes.find((c: { node_id: string }) => c.node_id === n2.id).actions).toEqual([
      { type: 'add_tags', tags: ['compost'] }, { type: 'file_para', para_item_id: area.id }, { type: 'set_status', from: 'raw', to: 'validated' },
    ]);
    expect((await node(n1.id)).tags).toEqual([]); // the dry run changed nothing
    expect((await ok(await t.req('GET', `/api/v1/rules/${r.id}/log`))).data).toEqual([]);

    const real = await ok(await t.req('POST', `/api/v1/rules/${r.id}/run`));
    expect({ ...real, dry_run: true }).toEqual(dry);
    for (const c of real.changes) {
      const n = await node(c.node_id);
      expect(n.tags).toEqual(expect.arrayContaining(['soil', 'compost']));
      expect(n.status).toBe('validated');
      expect(n.para_item_ids).toContain(area.id);
    }
    expect((await node(n3.id)).tags).toEqual([]);
    expect((await ok(await t.req('POST', `/api/v1/rules/${r.id}/dry-run`))).changes).toEqual([]); // nothing left to do

    const log = (await ok(await t.req('GET', `/api/v1/rules/${r.id}/log`))).data;
    expect(log).toHaveLength(real.changes.reduce((n: number, c: { actions: unknown[] }) => n + c.actions.length, 0));
    expect(log.every((e: { source: string; undone_at: null }) => e.source === 'run' && e.undone_at === null)).toBe(true);
    for (const e of log.filter((e: { node_id: string }) => e.node_id === n1.id)) {
      expect(await ok(await t.req('POST', `/api/v1/rules/${r.id}/log/${e.id}/undo`))).toMatchObject({ id: e.id, undone_at: expect.any(String) });
    }
    const back = await node(n1.id);
    expect(back).toMatchObject({ tags: [], status: 'raw', para_item_ids: [] });
    const first = log.find((e: { node_id: string }) => e.node_id === n1.id);
    await expectProblem(await t.req('POST', `/api/v1/rules/${r.id}/log/${first.id}/undo`), 409, 'conflict');
    await expectProblem(await t.req('POST', `/api/v1/rules/${r.id}/log/rla_nope/undo`), 404, 'not_found');
  });

  it('apply to captures as they complete, in their stated order; a skip dismisses and stops the rules after it', async () => {
    await rule({ name: 'notes to inbox', when: { content_type: 'note' }, then: { add_tags: ['inbox'] }, order: 10 });
    await rule({ name: 'inbox is read', when: { tag: 'inbox' }, then: { status: 'validated' }, order: 20 });
    const spam = await rule({ name: 'no spam', when: { title_words: ['spam'] }, then: { skip: true }, order: 5 });
    const kept = await settled(t, await postCapture(t, { title: 'A note', content_type: 'note', selected_text: 'Remember the compost' }));
    expect(await node(kept.node_id)).toMatchObject({ tags: expect.arrayContaining(['inbox']), status: 'validated' });
    const junk = await settled(t, await postCapture(t, { title: 'Spam offer', content_type: 'note', selected_text: 'buy now' }));
    const j = await node(junk.node_id);
    expect(j.status).toBe('dismissed');
    expect(j.tags).not.toContain('inbox');
    const log = (await ok(await t.req('GET', `/api/v1/rules/${spam.id}/log`))).data;
    expect(log).toMatchObject([{ node_id: junk.node_id, kind: 'skip', source: 'capture', detail: { from: 'raw', to: 'dismissed' } }]);
    await ok(await t.req('POST', `/api/v1/rules/${spam.id}/log/${log[0].id}/undo`));
    expect((await node(junk.node_id)).status).toBe('raw');
  });

  it('skip feed items before they are captured (undo captures them), and match host and URL patterns', async () => {
    fs.items.set('/rss.xml', [
      { guid: 's', title: 'Sponsored: buy seeds', link: fs.url('/ads/1'), content: 'ad' },
      { guid: 'k', title: 'Keeping bees', link: fs.url('/posts/bees'), content: 'Bees need water.' },
    ]);
    const feed = await ok(await t.req('POST', '/api/v1/feeds', { url: fs.url('/rss.xml') }), 201);
    const skip = await rule({ name: 'no ads', when: { feed_id: feed.id, url_pattern: '*/ads/*' }, then: { skip: true } });
    const tagHost = await rule({ name: 'local', when: { host: '127.0.0.1' }, then: { add_tags: ['local'] } });
    await t.s.queue.idle();
    const caps = (await ok(await t.req('GET', '/api/v1/captures?per_page=100'))).data;
    expect(caps.map((c: { title: string }) => c.title)).toEqual(['Keeping bees']);
    expect((await node(caps[0].node_id)).tags).toEqual(expect.arrayContaining(['local', feed.feed_tag]));
    expect((await ok(await t.req('GET', `/api/v1/rules/${tagHost.id}/log`))).data[0]).toMatchObject({ source: 'capture', kind: 'add_tags' });
    const [skipped] = (await ok(await t.req('GET', `/api/v1/rules/${skip.id}/log`))).data;
    expect(skipped).toMatchObject({ kind: 'skip_item', source: 'feed_item', node_id: null, detail: { title: 'Sponsored: buy seeds' } });
    await ok(await t.req('POST', `/api/v1/rules/${skip.id}/log/${skipped.id}/undo`));
    await t.s.queue.idle();
    const after = (await ok(await t.req('GET', '/api/v1/captures?per_page=100'))).data;
    expect(after.map((c: { title: string }) => c.title).sort()).toEqual(['Keeping bees', 'Sponsored: buy seeds']);
  });

  it('apply to the notes a Markdown import creates', async () => {
    await rule({ name: 'recipes', when: { title_words: ['recipe'] }, then: { add_tags: ['kitchen'] } });
    const zip = rawZip([{ name: 'Bread recipe.md', data: '# Bread recipe\n\nFlour, water, salt.' }, { name: 'Walks.md', data: '# Walks\n\nHills.' }]);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(zip)]), 'vault.zip');
    await ok(await t.req('POST', '/api/v1/imports/markdown', form), 202);
    await t.s.imports.idle();
    const nodes = (await ok(await t.req('GET', '/api/v1/nodes?per_page=100'))).data as Array<{ title: string; tags: string[] }>;
    expect(nodes.find((n) => n.title === 'Bread recipe')!.tags).toContain('kitchen');
    expect(nodes.find((n) => n.title === 'Walks')!.tags).not.toContain('kitchen');
  });
});
