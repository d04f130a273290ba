import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, type TestApp } from '../helpers/app.js';
import { articleHtml } from '../fixtures/generate.js';
import { capturesApp, fixtureSite, postCapture, serve, settled, type Site } from './helpers.js';

let t: TestApp;
let site: Site;
beforeAll(async () => {
  site = await fixtureSite();
});
afterAll(() => site.close());
beforeEach(async () => {
  t = await capturesApp();
  site.routes.clear();
  site.routes.set('/a', serve('text/html', articleHtml()));
});
afterEach(() => t.close());

const kinds = async (id: string, auth?: string) => ((await (await t.req('GET', `/api/v1/captures/${id}/activity`, undefined, auth)).json()).data as Array<{ kind: string }>).map((e) => e.kind);
const post = (id: string, action: string) => t.req('POST', `/api/v1/captures/${id}/${action}`);

async function waitFor(id: string, status: string) {
  for (let i = 0; i < 400; i++) {
    const c = await (await t.req('GET', `/api/v1/captures/${id}`)).json();
    if (c.status === status) return c;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`capture never became ${status}`);
}

describe('list', () => {
  it('pages newest first and filters by status', async () => {
    await t.s.queue.stop(); // they stay pending until the queue runs again
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await postCapture(t, { title: `Note ${i}`, content_type: 'note', selected_text: `text ${i}` }));
    const first = await (await t.req('GET', '/api/v1/captures?per_page=2')).json();
    expect(first).toMatchObject({ total: 5, page: 1, per_page: 2 });
    expect(first.data.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[3]]);
    const last = await (await t.req('GET', '/api/v1/captures?per_page=2&page=3')).json();
    expect(last.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect((await (await t.req('GET', '/api/v1/captures?status=pending')).json()).total).toBe(5);
    await t.s.queue.start();
    await t.s.queue.idle();
    expect((await (await t.req('GET', '/api/v1/captures?status=pending')).json()).total).toBe(0);
    const done = await (await t.req('GET', '/api/v1/captures?status=completed')).json();
    expect(done.total).toBe(5);
    expect(done.data[0]).toMatchObject({ status: 'completed', node_id: expect.stringMatching(/^nod_/) });
    await expectProblem(await t.req('GET', '/api/v1/captures?status=lost'), 400, 'validation_failed');
    await expectProblem(await t.req('GET', '/api/v1/captures?per_page=101'), 400, 'validation_failed');
  });
});

describe('failures and retry', () => {
  it('a permanent fetch error fails with a readable error but leaves a bookmark; retry fills the same node', async () => {
    const id = await postCapture(t, { title: 'Gone', content_type: 'article', url: site.url('/missing') });
    const failed = await settled(t, id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/HTTP 404/);
    expect(failed.node_id).toMatch(/^nod_/);
    const bookmark = await (await t.req('GET', `/api/v1/nodes/${failed.node_id}`)).json();
    expect(bookmark).toMatchObject({ title: 'Gone', tags: ['not-fetched'] });
    expect(bookmark.body_markdown).toContain(site.url('/missing'));
    expect(bookmark.body_markdown).toMatch(/Could not be fetched \(.*HTTP 404/);
    site.routes.set('/missing', serve('text/html', articleHtml()));
    const retried = await (await post(id, 'retry')).json();
    expect(retried).toMatchObject({ status: 'pending', error: null, attempts: 2 });
    const done = await settled(t, id);
    expect(done.status).toBe('completed');
    expect(done.node_id).toBe(failed.node_id);
    const filled = await (await t.req('GET', `/api/v1/nodes/${done.node_id}`)).json();
    expect(filled.tags).not.toContain('not-fetched');
    expect(filled.body_markdown).not.toContain('Could not be fetched');
    expect((await (await t.req('GET', '/api/v1/nodes')).json()).total).toBe(1);
    expect(await kinds(id)).toEqual([
      'created', 'queued', 'processing_started', 'bookmarked', 'failed', 'retried', 'queued', 'processing_started',
      ...Array(7).fill('stage_completed'), 'completed', 'snapshot_kept', // the page's archived copy follows completion
    ]);
  });

  it('transient errors retry with backoff, then complete', async () => {
    let calls = 0;
    site.routes.set('/flaky', (req, res) => (++calls === 1 ? res.writeHead(503).end('busy') : serve('text/html', articleHtml())(req, res)));
    const id = await postCapture(t, { title: 'Flaky', content_type: 'article', url: site.url('/flaky'), tags: ['Reading List'] });
    const waiting = await settled(t, id);
    expect(waiting.status).toBe('pending');
    expect(waiting.error).toMatch(/HTTP 503/);
    // Searchable at once as a bookmark, while the page waits for its next try.
    const found = await (await t.req('GET', '/api/v1/nodes?mode=keyword&query=flaky')).json();
    expect(found.data.map((n: { id: string }) => n.id)).toEqual([waiting.node_id]);
    expect(found.data[0].tags).toEqual(['reading-list', 'not-fetched']);
    expect(found.data[0].body_markdown).toContain('Not fetched yet');
    t.clock.advance(15_000);
    const done = await settled(t, id);
    expect(done.status).toBe('completed');
    expect(done.node_id).toBe(waiting.node_id);
    const filled = await (await t.req('GET', `/api/v1/nodes/${done.node_id}`)).json();
    expect(filled.tags[0]).toBe('reading-list');
    expect(filled.tags).not.toContain('not-fetched');
    const events = (await (await t.req('GET', `/api/v1/captures/${id}/activity`)).json()).data;
    const retry = events.find((e: { kind: string }) => e.kind === 'retry_scheduled');
    expect(retry.detail).toMatchObject({ stage: 'fetch', attempt: 1, retry_in_ms: 15_000 });
  });

  it('network errors are retried with a growing wait for about a day, then fail; the bookmark stays', async () => {
    site.routes.set('/down', (_q, res) => res.writeHead(502).end());
    const id = await postCapture(t, { title: 'Down', content_type: 'article', url: site.url('/down') });
    let c = await settled(t, id);
    const nodeId = c.node_id;
    expect(nodeId).toMatch(/^nod_/);
    let waited = 0;
    for (let i = 0; i < 20 && c.status !== 'failed'; i++) {
      const events = (await (await t.req('GET', `/api/v1/captures/${id}/activity`)).json()).data;
      const wait = events.filter((e: { kind: string }) => e.kind === 'retry_scheduled').at(-1).detail.retry_in_ms;
      waited += wait;
      t.clock.advance(wait);
      c = await settled(t, id);
    }
    expect(c.status).toBe('failed');
    expect(c.error).toMatch(/HTTP 502/);
    expect(c.node_id).toBe(nodeId);
    const delays = (await (await t.req('GET', `/api/v1/captures/${id}/activity`)).json()).data
      .filter((e: { kind: string }) => e.kind === 'retry_scheduled')
      .map((e: { detail: { retry_in_ms: number } }) => e.detail.retry_in_ms);
    expect(delays).toHaveLength(10);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]);
    expect(waited).toBeGreaterThan(20 * 3600_000);
    expect(waited).toBeLessThanOrEqual(24 * 3600_000);
    expect((await kinds(id)).filter((k) => k === 'bookmarked')).toHaveLength(1);
    expect((await (await t.req('GET', `/api/v1/nodes/${nodeId}`)).json()).tags).toContain('not-fetched');
  });

  it('an unreachable host (DNS failure) is transient and leaves a searchable bookmark', async () => {
    const id = await postCapture(t, { title: 'Offline reading', content_type: 'article', url: 'http://rhizome-test-host.invalid/post', why: 'for the train' });
    const c = await settled(t, id);
    expect(c.status).toBe('pending');
    expect(c.error).toMatch(/host not found/);
    const node = await (await t.req('GET', `/api/v1/nodes/${c.node_id}`)).json();
    expect(node).toMatchObject({ title: 'Offline reading', summary: 'for the train' });
    expect(node.body_markdown).toContain('http://rhizome-test-host.invalid/post');
  });

  it('refuses private addresses unless allowed', async () => {
    const strict = await capturesApp({ allowPrivateFetch: false });
    try {
      const res = await strict.req('POST', '/api/v1/captures', { title: 'Local', content_type: 'article', url: site.url('/a'), source: 'api' });
      const c = await settled(strict, (await res.json()).id);
      expect(c.status).toBe('failed');
      expect(c.error).toMatch(/private or loopback/);
    } finally {
      await strict.close();
    }
  });

  it('409 on retry or reingest while processing; retry of a completed capture is 409 too', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    site.routes.set('/slow', (req, res) => void gate.then(() => serve('text/html', articleHtml())(req, res)));
    const id = await postCapture(t, { title: 'Slow', content_type: 'article', url: site.url('/slow') });
    await expectProblem(await post(id, 'retry'), 409, 'conflict');
    await waitFor(id, 'processing');
    await expectProblem(await post(id, 'retry'), 409, 'conflict');
    await expectProblem(await post(id, 'reingest'), 409, 'conflict');
    release();
    const done = await settled(t, id);
    expect(done.status).toBe('completed');
    await expectProblem(await post(id, 'retry'), 409, 'conflict');
  });
});

describe('reingest, archive, dismiss, delete', () => {
  it('reingest runs the pipeline again and updates the same node', async () => {
    const id = await postCapture(t, { title: 'Page', content_type: 'article', url: site.url('/a') });
    const first = await settled(t, id);
    site.routes.set('/a', serve('text/html', articleHtml({ paragraphs: ['Rainwater harvesting stores roof runoff in barrels for dry weeks, and a simple diverter keeps the first dirty flush out of the barrel entirely.', 'Overflow pipes should lead water away from foundations so the house stays dry during long storms and heavy autumn rain.'] })));
    expect((await (await post(id, 'reingest')).json())).toMatchObject({ status: 'pending', attempts: 2 });
    const second = await settled(t, id);
    expect(second.status).toBe('completed');
    expect(second.node_id).toBe(first.node_id);
    const n = await (await t.req('GET', `/api/v1/nodes/${first.node_id}`)).json();
    expect(n.body_markdown).toContain('Rainwater harvesting');
    expect(n.body_markdown).not.toContain('Humus');
    expect((await (await t.req('GET', '/api/v1/nodes')).json()).total).toBe(1);
    const prov = await (await t.req('GET', `/api/v1/captures/${id}/provenance`)).json();
    expect(prov.run).toBe(2);
    expect(prov.stages).toHaveLength(7);
    expect((await kinds(id)).slice(-12, -10)).toEqual(['reingested', 'queued']);
    const last = (await (await t.req('GET', `/api/v1/captures/${id}/activity`)).json()).data.findLast((e: { kind: string }) => e.kind === 'completed');
    expect(last.detail).toMatchObject({ node: 'updated', node_id: first.node_id });
  });

  it('reingest after the node was deleted creates a fresh node', async () => {
    const id = await postCapture(t, { title: 'Page', content_type: 'note', selected_text: 'hello there' });
    const first = await settled(t, id);
    expect((await t.req('DELETE', `/api/v1/nodes/${first.node_id}`)).status).toBe(204);
    await post(id, 'reingest');
    const second = await settled(t, id);
    expect(second.node_id).not.toBe(first.node_id);
  });

  it('archive remembers the status and unarchive restores it; both idempotent', async () => {
    const id = await postCapture(t, { title: 'Note', content_type: 'note', selected_text: 'x y z' });
    await settled(t, id);
    expect((await (await post(id, 'archive')).json()).status).toBe('archived');
    expect((await (await post(id, 'archive')).json()).status).toBe('archived');
    await expectProblem(await post(id, 'reingest'), 409, 'conflict');
    expect((await (await t.req('GET', '/api/v1/captures?status=archived')).json()).total).toBe(1);
    expect((await (await post(id, 'unarchive')).json()).status).toBe('completed');
    expect((await (await post(id, 'unarchive')).json()).status).toBe('completed');
    expect((await kinds(id)).filter((k) => k === 'archived' || k === 'unarchived')).toEqual(['archived', 'unarchived']);
  });

  it('a capture archived while pending is still processed, and unarchives to completed', async () => {
    await t.s.queue.stop(); // pending until archived
    const id = await postCapture(t, { title: 'Note', content_type: 'note', selected_text: 'archive me early' });
    expect((await (await post(id, 'archive')).json()).status).toBe('archived');
    await t.s.queue.start();
    const c = await settled(t, id);
    expect(c.status).toBe('archived');
    expect(c.node_id).toEqual(expect.stringMatching(/^nod_/));
    expect((await (await post(id, 'unarchive')).json()).status).toBe('completed');
  });

  it('dismissing a pending capture drops its run; reingest revives it', async () => {
    await t.s.queue.stop(); // pending until dismissed
    const id = await postCapture(t, { title: 'Meh', content_type: 'note', selected_text: 'not needed' });
    expect((await (await post(id, 'dismiss')).json()).status).toBe('dismissed');
    await t.s.queue.start();
    const c = await settled(t, id);
    expect(c).toMatchObject({ status: 'dismissed', node_id: null });
    expect((await (await t.req('GET', '/api/v1/nodes')).json()).total).toBe(0);
    expect((await (await post(id, 'dismiss')).json()).status).toBe('dismissed');
    await post(id, 'reingest');
    expect((await settled(t, id)).status).toBe('completed');
  });

  it('delete removes the capture and keeps its node', async () => {
    const id = await postCapture(t, { title: 'Keep the node', content_type: 'note', selected_text: 'durable knowledge' });
    const c = await settled(t, id);
    expect((await t.req('DELETE', `/api/v1/captures/${id}`)).status).toBe(204);
    await expectProblem(await t.req('GET', `/api/v1/captures/${id}`), 404, 'not_found');
    await expectProblem(await t.req('GET', `/api/v1/captures/${id}/activity`), 404, 'not_found');
    await expectProblem(await t.req('DELETE', `/api/v1/captures/${id}`), 404, 'not_found');
    expect((await t.req('GET', `/api/v1/nodes/${c.node_id}`)).status).toBe(200);
  });

  it('content 404s before processing and when there is no raw content', async () => {
    const id = await postCapture(t, { title: 'Bare', content_type: 'note', why: 'just a reminder' });
    await expectProblem(await t.req('GET', `/api/v1/captures/${id}/content?format=markdown`), 404, 'not_found');
    await expectProblem(await t.req('GET', `/api/v1/captures/${id}/content`), 404, 'not_found');
    await expectProblem(await t.req('GET', `/api/v1/captures/${id}/content?format=pdf`), 400, 'validation_failed');
  });
});

describe('activity and provenance', () => {
  it('provenance names each stage, its model and its output', async () => {
    await t.req('POST', '/api/v1/para', { category: 'areas', label: 'Gardening', description: 'compost, soil, worms and growing vegetables' });
    // Close enough to the article to clear the test model's calibrated floor (suggestions draw nothing in under it).
    const other = await (await t.req('POST', '/api/v1/nodes', { title: 'Compost heap', content: 'Compost is decomposed organic matter that gardeners add to soil. Worms, fungi and bacteria break kitchen scraps and leaves down into humus. A good compost heap mixes green material with brown material and is turned every few weeks to let air in.' })).json();
    await t.s.queue.idle();
    const id = await postCapture(t, { title: 'Compost guide', content_type: 'article', url: site.url('/a') });
    const c = await settled(t, id);
    const prov = await (await t.req('GET', `/api/v1/captures/${id}/provenance`)).json();
    expect(prov).toMatchObject({ capture_id: id, run: 1, node_id: c.node_id });
    expect(prov.stages.map((s: { stage: string }) => s.stage)).toEqual(['fetch', 'extract', 'summarize', 'tag', 'embed', 'classify', 'link']);
    for (const s of prov.stages) {
      expect(s.started_at <= s.finished_at).toBe(true);
      expect(s.model).toEqual(expect.any(String));
    }
    const [fetch, extract, summarize, tag, embed, classify, link] = prov.stages;
    expect(fetch).toMatchObject({ model: 'rhizome-safe-fetch@1', output: { http_status: 200, detected_mime: 'text/html', origin: 'url' } });
    expect(extract.model).toMatch(/^@mozilla\/readability@[\d.]+\+linkedom@[\d.]+\+turndown@[\d.]+$/);
    expect(extract.output.preview).toContain('Compost is decomposed organic matter');
    expect(summarize.model).toBe('rhizome-extractive-centroid-mmr@1+hash-64');
    expect(summarize.output.summary).toBe((await (await t.req('GET', `/api/v1/nodes/${c.node_id}`)).json()).summary);
    expect(tag).toMatchObject({ model: 'rhizome-keyphrase-ngram@1', output: { tags: expect.arrayContaining(['compost']) } });
    expect(embed).toMatchObject({ model: 'hash-64', output: { dimension: 64 } });
    expect(embed.output.nearest[0].node_id).toBe(other.id);
    expect(classify.output.active_items).toBe(1);
    expect(classify.output.candidates[0].label).toBe('Gardening');
    expect(link.output.suggestions.map((x: { node_id: string }) => x.node_id)).toContain(other.id);
  });

  it('activity entries carry id, kind, at and detail, oldest first', async () => {
    const id = await postCapture(t, { title: 'N', content_type: 'note', selected_text: 'abc def' });
    await settled(t, id);
    const { data } = await (await t.req('GET', `/api/v1/captures/${id}/activity`)).json();
    expect(data[0]).toEqual({ id: expect.any(String), kind: 'created', at: expect.any(String), detail: { source: 'api', content_type: 'note' } });
    expect(data.map((e: { id: string }) => Number(e.id))).toEqual([...data.map((e: { id: string }) => Number(e.id))].sort((a, b) => a - b));
    // The run ends with 'completed' (the archive copy's events, a job of their own, may follow it).
    const done = data.findIndex((e: { kind: string }) => e.kind === 'completed');
    expect(data[done]).toMatchObject({ kind: 'completed', detail: { node: 'created', run: 1 } });
    expect(data.slice(done + 1).every((e: { kind: string }) => e.kind.startsWith('snapshot'))).toBe(true);
    expect(data.filter((e: { kind: string }) => e.kind === 'stage_completed').map((e: { detail: { stage: string } }) => e.detail.stage)).toEqual(['fetch', 'extract', 'summarize', 'tag', 'embed', 'classify', 'link']);
  });

  it('records the LLM model when one is configured', async () => {
    site.routes.set('/v1/chat/completions', (_q, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ model: 'fake-llm-1', choices: [{ message: { content: 'Sure: {"summary": "Compost feeds soil life.", "tags": ["Soil Life", "compost"]}' } }] })),
    );
    const llm = await capturesApp({ llmUrl: site.url(''), llmModel: 'fake-llm' });
    try {
      const res = await llm.req('POST', '/api/v1/captures', { title: 'Compost', content_type: 'article', url: site.url('/a'), source: 'api' });
      const c = await settled(llm, (await res.json()).id);
      const n = await (await llm.req('GET', `/api/v1/nodes/${c.node_id}`)).json();
      expect(n).toMatchObject({ summary: 'Compost feeds soil life.', tags: ['soil-life', 'compost'] });
      const prov = await (await llm.req('GET', `/api/v1/captures/${c.id}/provenance`)).json();
      expect(prov.stages[2].model).toBe('llm:fake-llm-1');
      expect(prov.stages[3].model).toBe('llm:fake-llm-1');
    } finally {
      await llm.close();
    }
  });
});

describe('tenant isolation', () => {
  it('another tenant sees 404 everywhere and an empty list', async () => {
    const id = await postCapture(t, { title: 'Private', content_type: 'note', selected_text: 'mine' });
    await settled(t, id);
    const beta = await t.tenant('beta');
    for (const [m, p] of [['GET', ''], ['GET', '/content'], ['GET', '/content?format=markdown'], ['GET', '/activity'], ['GET', '/provenance'], ['POST', '/retry'], ['POST', '/reingest'], ['POST', '/archive'], ['POST', '/unarchive'], ['POST', '/dismiss'], ['DELETE', '']]) {
      await expectProblem(await t.req(m, `/api/v1/captures/${id}${p}`, undefined, beta.auth), 404, 'not_found');
    }
    expect((await (await t.req('GET', '/api/v1/captures', undefined, beta.auth)).json()).total).toBe(0);
    expect((await (await t.req('GET', `/api/v1/captures/${id}`)).json()).status).toBe('completed');
  });
});
