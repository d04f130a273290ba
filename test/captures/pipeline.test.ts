import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { articleHtml, makeDocx, makePdf, makePng, repoHtml, tweetHtml, videoPageHtml } from '../fixtures/generate.js';
import { capturesApp, fixtureSite, postCapture, serve, settled, upload, type Site } from './helpers.js';

let t: TestApp;
let site: Site;
beforeAll(async () => {
  site = await fixtureSite();
  site.routes.set('/posts/compost', serve('text/html; charset=utf-8', articleHtml()));
  site.routes.set('/watch', serve('text/html', videoPageHtml()));
  site.routes.set('/ada/status/1', serve('text/html', tweetHtml()));
  site.routes.set('/acme/soil-sensor', serve('text/html', repoHtml()));
  site.routes.set('/paper.pdf', (_q, res) => void makePdf().then((pdf) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf)));
  site.routes.set('/pic.png', serve('image/png', makePng(8, 5)));
  site.routes.set('/episode.mp3', (_q, res) => res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': '4000000' }).end());
  site.routes.set('/latin1', (_q, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from('Caf\xe9 au lait is a drink.', 'latin1')));
});
afterAll(() => site.close());
beforeEach(async () => {
  t = await capturesApp();
});
afterEach(() => t.close());

async function node(id: string) {
  const res = await t.req('GET', `/api/v1/nodes/${id}`);
  expect(res.status).toBe(200);
  return res.json();
}

describe('each content type becomes a node', () => {
  it('article by URL: fetched, boilerplate dropped, summarised, tagged', async () => {
    const id = await postCapture(t, { title: 'Compost guide', content_type: 'article', url: site.url('/posts/compost?utm_source=feed'), why: 'soil prep for spring' });
    const c = await settled(t, id);
    expect(c.status).toBe('completed');
    expect(c.error).toBeNull();
    expect(c.processed_at).toEqual(expect.any(String));
    expect(c.metadata).toMatchObject({ detected_mime: 'text/html', site_name: 'Example Garden Blog', author: 'Alex Gardener', document_title: 'How Compost Feeds a Garden' });
    expect(c.metadata.word_count).toBeGreaterThan(60);
    expect(c.metadata.byte_size).toBe(Buffer.byteLength(articleHtml()));
    const n = await node(c.node_id);
    expect(n.title).toBe('Compost guide');
    expect(n.body_markdown).toContain('Humus holds water like a sponge');
    expect(n.body_markdown).not.toContain('Subscribe to our newsletter');
    expect(n.body_markdown).toContain('Why I kept this: soil prep for spring');
    expect(n.summary.length).toBeGreaterThan(40);
    expect(articleHtml()).toContain(n.summary.split('. ')[0]);
    expect(n.tags).toContain('compost');
    expect(n.status).toBe('raw');
    const md = await t.req('GET', `/api/v1/captures/${id}/content?format=markdown`);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await md.text()).toContain('Finished compost smells like a forest floor');
    const raw = await t.req('GET', `/api/v1/captures/${id}/content`);
    expect(raw.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(raw.headers.get('content-disposition')).toBe('inline; filename="compost"');
    expect(await raw.text()).toBe(articleHtml());
  });

  it('article with raw HTML from the browser: no fetch', async () => {
    const before = site.hits.get('/posts/compost') ?? 0;
    const id = await postCapture(t, { title: 'Compost', content_type: 'article', url: site.url('/posts/compost'), raw_content: articleHtml({ title: 'Raw Compost' }) });
    const c = await settled(t, id);
    expect(c.status).toBe('completed');
    expect(site.hits.get('/posts/compost') ?? 0).toBe(before);
    expect(c.metadata.document_title).toBe('Raw Compost');
    const raw = await t.req('GET', `/api/v1/captures/${id}/content`);
    expect(raw.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await raw.text()).toContain('Raw Compost');
  });

  it('video page: description and duration', async () => {
    const c = await settled(t, await postCapture(t, { title: 'Pruning', content_type: 'video', url: site.url('/watch') }));
    expect(c.status).toBe('completed');
    expect(c.metadata.duration_seconds).toBe('754');
    expect((await node(c.node_id)).body_markdown).toContain('prune apple trees in winter');
  });

  it('tweet: the post text from its card', async () => {
    const c = await settled(t, await postCapture(t, { title: 'Garlic tip', content_type: 'tweet', url: site.url('/ada/status/1') }));
    expect(c.status).toBe('completed');
    expect((await node(c.node_id)).body_markdown).toContain('Cloves go in pointy end up');
    expect(c.metadata.site_name).toBe('X');
  });

  it('repo: the README without the site chrome', async () => {
    const c = await settled(t, await postCapture(t, { title: 'soil-sensor', content_type: 'repo', url: site.url('/acme/soil-sensor') }));
    const n = await node(c.node_id);
    expect(n.body_markdown).toContain('capacitive soil moisture sensor');
    expect(n.body_markdown).toContain('```\npio run --target upload\n```');
    expect(n.body_markdown).not.toMatch(/Pull requests|Pricing|Terms Privacy/);
  });

  it('PDF upload and PDF by URL: text of every page, page count', async () => {
    for (const id of [
      (await (await upload(t, await makePdf(), 'forest.pdf')).json()).id,
      await postCapture(t, { title: 'Forest paper', content_type: 'pdf', url: site.url('/paper.pdf') }),
    ]) {
      const c = await settled(t, id);
      expect(c.status).toBe('completed');
      expect(c.metadata).toMatchObject({ page_count: 2, detected_mime: 'application/pdf' });
      const n = await node(c.node_id);
      expect(n.body_markdown).toMatch(/Mycorrhizal networks[\s\S]*hub trees/);
      const raw = await t.req('GET', `/api/v1/captures/${id}/content`);
      expect(raw.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await raw.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('DOCX upload: headings and emphasis kept', async () => {
    const c = await settled(t, (await (await upload(t, await makeDocx(), 'bread.docx')).json()).id);
    expect(c.status).toBe('completed');
    expect(c.content_type).toBe('note');
    const n = await node(c.node_id);
    expect(n.body_markdown).toContain('# Sourdough Baking Notes');
    expect(n.body_markdown).toContain('**Feed the starter**');
    expect(c.metadata.word_count).toBeGreaterThan(20);
  });

  it('PNG upload and image by URL: dimensions, format and the user text', async () => {
    const up = await settled(t, (await (await upload(t, makePng(4, 3), 'chart.png', { why: 'quarterly revenue chart' })).json()).id);
    expect(up.status).toBe('completed');
    expect(up.metadata).toMatchObject({ width: 4, height: 3, format: 'png' });
    expect((await node(up.node_id)).body_markdown).toContain('quarterly revenue chart');
    const byUrl = await settled(t, await postCapture(t, { title: 'Pic', content_type: 'image', url: site.url('/pic.png'), selected_text: 'alt: an orange square' }));
    expect(byUrl.metadata).toMatchObject({ width: 8, height: 5 });
    expect((await node(byUrl.node_id)).body_markdown).toContain('an orange square');
  });

  it('audio by URL: metadata without downloading, plus the user text', async () => {
    const c = await settled(t, await postCapture(t, { title: 'Podcast', content_type: 'audio', url: site.url('/episode.mp3'), why: 'episode about soil biology' }));
    expect(c.status).toBe('completed');
    expect(c.metadata).toMatchObject({ detected_mime: 'audio/mpeg', byte_size: 4000000 });
    expect((await node(c.node_id)).body_markdown).toContain('episode about soil biology');
  });

  it('text and markdown uploads as they are', async () => {
    const txt = await settled(t, (await (await upload(t, new TextEncoder().encode('Bees pollinate apple blossoms. Orchards depend on them.'), 'bees.txt')).json()).id);
    expect((await node(txt.node_id)).body_markdown).toMatch(/^Bees pollinate apple blossoms/);
    const md = '# Reading list\n\n- *Braiding Sweetgrass*\n- [Soil food web](https://example.org/sfw)\n';
    const mdc = await settled(t, (await (await upload(t, new TextEncoder().encode(md), 'list.md')).json()).id);
    expect((await node(mdc.node_id)).body_markdown).toContain('- [Soil food web](https://example.org/sfw)');
    const raw = await t.req('GET', `/api/v1/captures/${mdc.id}/content`);
    expect(raw.headers.get('content-type')).toBe('text/markdown');
  });

  it('a note with only selected text, and one with only a title and a reason', async () => {
    const a = await settled(t, await postCapture(t, { title: 'Quote', content_type: 'note', selected_text: 'The best time to plant a tree was twenty years ago.' }));
    expect((await node(a.node_id)).body_markdown).toContain('The best time to plant a tree');
    const b = await settled(t, await postCapture(t, { title: 'Call the plumber', content_type: 'note', why: 'kitchen tap drips' }));
    expect(b.status).toBe('completed');
    const n = await node(b.node_id);
    expect(n.body_markdown).toContain('kitchen tap drips');
    expect(n.summary).toBe('kitchen tap drips');
  });

  it('re-encodes a declared charset to UTF-8', async () => {
    const c = await settled(t, await postCapture(t, { title: 'Cafe', content_type: 'article', url: site.url('/latin1') }));
    expect((await node(c.node_id)).body_markdown).toContain('Café au lait');
  });
});

describe('tags reuse the vocabulary', () => {
  it('prefers an existing tag the text mentions', async () => {
    await t.req('POST', '/api/v1/nodes', { title: 'Older note', tags: ['soil-health', 'worms'] });
    const c = await settled(t, await postCapture(t, { title: 'Compost guide', content_type: 'article', url: site.url('/posts/compost') }));
    const n = await node(c.node_id);
    expect(n.tags[0]).toBe('worms');
    const prov = await (await t.req('GET', `/api/v1/captures/${c.id}/provenance`)).json();
    expect(prov.stages.find((s: { stage: string }) => s.stage === 'tag').output.reused).toEqual(['worms']);
  });
});

describe('the node vector', () => {
  it('is stored with the node by the capture itself (no second model call), so semantic search finds it at once', async () => {
    const spy = vi.spyOn(t.s.embedder, 'embed');
    const c = await settled(t, await postCapture(t, { title: 'Compost guide', content_type: 'article', url: site.url('/posts/compost') }));
    const v = await t.s.vectors.get(t.tenantId, c.node_id);
    expect(v).not.toBeNull();
    const n = await node(c.node_id);
    const [expected] = await t.s.embedder.embed([[n.title, n.summary, n.body_markdown].join('\n').slice(0, 2000)]);
    expect(Array.from(v!)).toEqual(Array.from(expected));
    const nodeText = [n.title, n.summary, n.body_markdown].join('\n').slice(0, 2000);
    expect(spy.mock.calls.filter(([texts]) => texts.includes(nodeText))).toHaveLength(2); // the embed stage, and this test
    spy.mockRestore();
    const found = await (await t.req('GET', `/api/v1/nodes?mode=semantic&query=${encodeURIComponent('compost humus worms soil')}`)).json();
    expect(found.data[0].id).toBe(c.node_id);
  });
});
