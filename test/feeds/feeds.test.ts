import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { capturesApp } from '../captures/helpers.js';
import { article, startFeedServer, type FeedServer, type Item } from './feed-server.js';

let t: TestApp;
let fs: FeedServer;
beforeAll(async () => {
  fs = await startFeedServer();
});
afterAll(() => fs.close());
beforeEach(async () => {
  t = await capturesApp();
  fs.items.clear();
  fs.failing.clear();
  fs.pages.clear();
  fs.requests.clear();
  fs.conditional.asked = fs.conditional.notModified = 0;
});
afterEach(() => t.close());

const item = (n: number, over: Partial<Item> = {}): Item => ({
  guid: `guid-${n}`, title: `Item ${n}`, link: fs.url(`/posts/${n}`), content: `<p>Item ${n} speaks of mulch and worms.</p>`,
  date: `2026-01-0${n}T10:00:00Z`, ...over,
});

async function subscribe(body: Record<string, unknown>) {
  const res = await t.req('POST', '/api/v1/feeds', body);
  if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
  return res.json();
}

async function captures() {
  await t.s.queue.idle();
  const res = await t.req('GET', '/api/v1/captures?per_page=100');
  return (await res.json()).data as Array<{ id: string; title: string; url: string | null; status: string; node_id: string | null }>;
}

async function node(id: string) {
  return (await t.req('GET', `/api/v1/nodes/${id}`)).json();
}

async function ok(res: Response) {
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

async function feed(id: string) {
  return (await t.req('GET', `/api/v1/feeds/${id}`)).json();
}

describe('subscribing and polling', () => {
  it('RSS: each item becomes a capture of its full page, tagged with the feed; a 304 costs no capture', async () => {
    fs.items.set('/rss.xml', [item(2), item(1)]);
    fs.pages.set('/posts/1', article('Mulch matters', 'A full page about mulch and how it keeps soil moist.'));
    fs.pages.set('/posts/2', article('Worm towers', 'A full page about worm towers in raised beds.'));
    const f = await subscribe({ url: fs.url('/rss.xml'), tags: ['Garden'] });
    expect(f).toMatchObject({ url: fs.url('/rss.xml'), title: 'Garden Notes', status: 'active', items_seen: 0, last_polled_at: null, tags: ['garden'], feed_tag: 'feed-garden-notes' });
    const caps = await captures();
    expect(caps.map((c) => c.title).sort()).toEqual(['Item 1', 'Item 2']);
    expect(caps.every((c) => c.status === 'completed')).toBe(true);
    const n1 = await node(caps.find((c) => c.title === 'Item 1')!.node_id!);
    expect(n1.body_markdown).toContain('keeps soil moist'); // the full page, not the item's summary
    expect(n1.tags).toEqual(expect.arrayContaining(['garden', 'feed-garden-notes']));
    expect(n1.created_at).toBe('2026-01-01T10:00:00.000Z'); // the item's own date
    const after = await feed(f.id);
    expect(after).toMatchObject({ items_seen: 2, error_count: 0, format: 'rss', last_error: null });
    expect(after.last_polled_at).toEqual(expect.any(String));

    // Unchanged feed: the conditional request is answered 304 and nothing new is captured.
    expect((await t.req('POST', `/api/v1/feeds/${f.id}/poll`)).status).toBe(202);
    expect(await captures()).toHaveLength(2);
    expect(fs.conditional).toEqual({ asked: 1, notModified: 1 });
    // A new item (and an old one whose GUID changed but URL did not): only the new one is captured.
    fs.items.set('/rss.xml', [item(3), item(2), item(1, { guid: 'guid-1-renamed' })]);
    t.clock.advance(60 * 60_000); // the feed's own interval: the scheduled poll runs
    const caps2 = await captures();
    expect(caps2.map((c) => c.title).sort()).toEqual(['Item 1', 'Item 2', 'Item 3']);
    expect(fs.conditional.asked).toBe(2);
    expect(fs.conditional.notModified).toBe(1);
    expect((await feed(f.id)).items_seen).toBe(3);
  });

  it('two polls of one feed at once capture a new item once', async () => {
    fs.items.set('/rss.xml', [item(1)]);
    const f = await subscribe({ url: fs.url('/rss.xml') });
    await captures();
    fs.items.set('/rss.xml', [item(2), item(1)]);
    t.clock.advance(60 * 60_000); // the scheduled poll is due...
    await t.req('POST', `/api/v1/feeds/${f.id}/poll`); // ...and a poll now: the queue runs both at once
    expect((await captures()).map((c) => c.title).sort()).toEqual(['Item 1', 'Item 2']);
    expect((await feed(f.id)).items_seen).toBe(2);
  });

  it("a page URL is resolved to the Atom feed it names; an item whose page cannot be fetched keeps the item's own content", async () => {
    fs.items.set('/atom.xml', [item(1, { link: fs.url('/gone/1'), content: '<p>Only the feed knows about <b>comfrey tea</b>.</p>' })]);
    const f = await subscribe({ url: fs.url('/blog') });
    expect(f).toMatchObject({ url: fs.url('/atom.xml'), title: 'Atom Allotment', format: 'atom', site_url: 'http://example.com/blog' });
    const [c] = await captures();
    expect(c.status).toBe('completed');
    expect((await node(c.node_id!)).body_markdown).toContain('comfrey tea');
  });

  it('JSON Feed, a gzip-encoded feed and a redirecting feed are read', async () => {
    fs.items.set('/feed.json', [item(1)]);
    fs.items.set('/gzip.xml', [item(2)]);
    fs.items.set('/rss.xml', [item(3)]);
    expect(await subscribe({ url: fs.url('/feed.json') })).toMatchObject({ title: 'Json Journal', format: 'json' });
    expect(await subscribe({ url: fs.url('/gzip.xml') })).toMatchObject({ title: 'Zipped Zinnias', format: 'rss' });
    expect(await subscribe({ url: fs.url('/moved.xml') })).toMatchObject({ title: 'Garden Notes', url: fs.url('/moved.xml') });
    expect((await captures()).map((c) => c.title).sort()).toEqual(['Item 1', 'Item 2', 'Item 3']);
  });

  it('refuses what is not a feed, a huge feed, a duplicate and a private address (when not allowed) with 400/409, creating nothing', async () => {
    await expectProblem(await t.req('POST', '/api/v1/feeds', { url: fs.url('/malformed.xml') }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/feeds', { url: fs.url('/plain-page') }), 400, 'validation_failed');
    const huge = await expectProblem(await t.req('POST', '/api/v1/feeds', { url: fs.url('/huge.xml') }), 400, 'validation_failed');
    expect(huge.detail).toMatch(/larger than/);
    await expectProblem(await t.req('POST', '/api/v1/feeds', { url: 'ftp://example.com/feed' }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/feeds', { url: fs.url('/rss.xml'), interval_minutes: 1 }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/feeds', { url: fs.url('/rss.xml'), para_item_id: 'par_nope' }), 400, 'validation_failed');
    expect((await (await t.req('GET', '/api/v1/feeds')).json()).data).toEqual([]);
    await subscribe({ url: fs.url('/rss.xml') });
    await expectProblem(await t.req('POST', '/api/v1/feeds', { url: fs.url('/rss.xml') }), 409, 'conflict');
    const strict = await makeTestApp();
    try {
      await expectProblem(await strict.req('POST', '/api/v1/feeds', { url: fs.url('/rss.xml') }), 400, 'validation_failed');
    } finally {
      await strict.close();
    }
  });

  it('another tenant sees none of it', async () => {
    const f = await subscribe({ url: fs.url('/rss.xml') });
    const other = await t.tenant('beta');
    for (const [m, p] of [['GET', `/api/v1/feeds/${f.id}`], ['PATCH', `/api/v1/feeds/${f.id}`], ['DELETE', `/api/v1/feeds/${f.id}`], ['POST', `/api/v1/feeds/${f.id}/poll`]] as const) {
      await expectProblem(await t.req(m, p, m === 'PATCH' ? { title: 'x' } : undefined, other.auth), 404, 'not_found');
    }
    expect((await (await t.req('GET', '/api/v1/feeds', undefined, other.auth)).json()).data).toEqual([]);
  });
});

describe('errors, backoff, pause', () => {
  it('a failing feed backs off, is marked after a week of failures (never dropped), and recovers', async () => {
    fs.items.set('/rss.xml', [item(1)]);
    const f = await subscribe({ url: fs.url('/rss.xml'), interval_minutes: 60 });
    await captures();
    fs.failing.set('/rss.xml', 500);
    t.clock.advance(60 * 60_000);
    await t.s.queue.idle();
    let cur = await feed(f.id);
    expect(cur).toMatchObject({ status: 'active', error_count: 1 });
    expect(cur.last_error).toMatch(/HTTP 500/);
    // Backoff: the next poll waits twice the interval.
    expect(Date.parse(cur.next_poll_at) - Date.parse(cur.last_polled_at)).toBe(2 * 60 * 60_000);
    const before = fs.requests.get('/rss.xml');
    t.clock.advance(60 * 60_000);
    await t.s.queue.idle();
    expect(fs.requests.get('/rss.xml')).toBe(before); // not yet
    for (let day = 0; day < 8; day++) {
      t.clock.advance(24 * 3600_000);
      await t.s.queue.idle();
    }
    cur = await feed(f.id);
    expect(cur.status).toBe('failing');
    expect(cur.error_count).toBeGreaterThan(5);
    expect(Date.parse(cur.next_poll_at) - Date.parse(cur.last_polled_at)).toBe(24 * 3600_000);
    expect((await (await t.req('GET', '/api/v1/feeds')).json()).data).toHaveLength(1);
    fs.failing.clear();
    await t.req('POST', `/api/v1/feeds/${f.id}/poll`);
    await t.s.queue.idle();
    expect(await feed(f.id)).toMatchObject({ status: 'active', error_count: 0, failing_since: null, last_error: null });
  });

  it('a malformed document is an error of the feed, not of the server', async () => {
    // Subscribing refuses it (400); a feed followed through OPML is polled and records the error.
    const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>x</title></head><body><outline text="Broken" xmlUrl="${fs.url('/malformed.xml')}"/></body></opml>`;
    const res = await t.app.request('/api/v1/feeds/opml', { method: 'POST', headers: { Authorization: `ApiKey ${t.key}`, 'content-type': 'text/x-opml' }, body: opml });
    const [g] = (await ok(res)).imported;
    await t.s.queue.idle();
    expect(await feed(g.id)).toMatchObject({ status: 'active', error_count: 1, items_seen: 0, last_error: expect.stringMatching(/not a feed/) });
    expect(await captures()).toEqual([]);
  });

  it('paused feeds are not polled; resuming polls at once', async () => {
    fs.items.set('/rss.xml', [item(1)]);
    const f = await subscribe({ url: fs.url('/rss.xml') });
    await captures();
    const polled = fs.requests.get('/rss.xml');
    expect((await (await t.req('PATCH', `/api/v1/feeds/${f.id}`, { status: 'paused' })).json()).status).toBe('paused');
    await expectProblem(await t.req('POST', `/api/v1/feeds/${f.id}/poll`), 409, 'conflict');
    fs.items.set('/rss.xml', [item(2), item(1)]);
    t.clock.advance(3 * 60 * 60_000);
    expect(await captures()).toHaveLength(1);
    expect(fs.requests.get('/rss.xml')).toBe(polled);
    expect((await (await t.req('PATCH', `/api/v1/feeds/${f.id}`, { status: 'active' })).json()).status).toBe('active');
    expect(await captures()).toHaveLength(2);
  });

  it("a feed's PARA item files each item's node", async () => {
    const area = await (await t.req('POST', '/api/v1/para', { category: 'areas', label: 'Garden' })).json();
    fs.items.set('/rss.xml', [item(1)]);
    await subscribe({ url: fs.url('/rss.xml'), para_item_id: area.id });
    const [c] = await captures();
    expect((await node(c.node_id!)).para_item_ids).toEqual([area.id]);
  });
});

describe('OPML', () => {
  it('round trip: export, import elsewhere, export again; known feeds are skipped; folders become tags', async () => {
    fs.items.set('/rss.xml', [item(1)]);
    fs.items.set('/atom.xml', [item(2)]);
    await subscribe({ url: fs.url('/rss.xml') });
    await subscribe({ url: fs.url('/atom.xml') });
    const res = await t.req('GET', '/api/v1/feeds/opml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/x-opml/);
    const opml = await res.text();
    expect(opml).toContain(`xmlUrl="${fs.url('/rss.xml')}"`);

    const other = await t.tenant('beta');
    const empty = await t.app.request('/api/v1/feeds/opml', { headers: { Authorization: other.auth } });
    expect(empty.status).toBe(200);
    expect(await empty.text()).toContain('<body/>');
    const imp = await t.app.request('/api/v1/feeds/opml', { method: 'POST', headers: { Authorization: other.auth, 'content-type': 'text/x-opml' }, body: opml });
    expect(imp.status).toBe(200);
    const body = await imp.json();
    expect(body.imported.map((f: { url: string; title: string }) => [f.url, f.title]).sort()).toEqual([[fs.url('/atom.xml'), 'Atom Allotment'], [fs.url('/rss.xml'), 'Garden Notes']]);
    expect(body.skipped).toEqual([]);
    const again = await (await t.app.request('/api/v1/feeds/opml', { method: 'POST', headers: { Authorization: other.auth, 'content-type': 'text/x-opml' }, body: opml })).json();
    expect(again.imported).toEqual([]);
    expect(again.skipped.map((s: { reason: string }) => s.reason)).toEqual(['already subscribed', 'already subscribed']);
    const reexport = await (await t.app.request('/api/v1/feeds/opml', { headers: { Authorization: other.auth } })).text();
    const outlines = (x: string) => [...x.matchAll(/<outline [^>]*>/g)].map((m) => m[0].replace(/\s+/g, ' ')).sort();
    expect(outlines(reexport)).toEqual(outlines(opml));

    const folders = `<?xml version="1.0"?><opml version="2.0"><head><title>x</title></head><body><outline text="Green Things"><outline text="Zines" xmlUrl="${fs.url('/gzip.xml')}"/></outline></body></opml>`;
    const r3 = await t.app.request('/api/v1/feeds/opml', { method: 'POST', headers: { Authorization: `ApiKey ${t.key}`, 'content-type': 'application/xml' }, body: folders });
    expect((await r3.json()).imported[0]).toMatchObject({ title: 'Zines', tags: ['green-things'] });
    const broken = await t.app.request('/api/v1/feeds/opml', { method: 'POST', headers: { Authorization: `ApiKey ${t.key}`, 'content-type': 'application/xml' }, body: '<opml><head>' });
    await expectProblem(broken, 400, 'validation_failed');
  });
});
