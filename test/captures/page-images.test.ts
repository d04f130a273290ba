// A web capture keeps its page's Open Graph image and favicon (sniffed, size-capped,
// fetched through the guarded fetcher); a bad or missing picture never fails the capture.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, type TestApp } from '../helpers/app.js';
import { makePng } from '../fixtures/generate.js';
import { faviconUrl } from '../../src/ingest/page-images.js';
import { capturesApp, fixtureSite, postCapture, serve, settled, type Site } from './helpers.js';

let t: TestApp;
let site: Site;

const page = (head: string) => `<!doctype html><html lang="en"><head><title>Soil notes</title>${head}</head>
<body><article><h1>Soil notes</h1><p>${'Worms turn leaves into soil that holds water and feeds roots. '.repeat(12)}</p></article></body></html>`;

// A 1x1 ICO header + PNG payload is what many sites serve; a PNG served as favicon is the common case too.
const ICON = makePng(16, 16);
const BIG = Buffer.concat([makePng(8, 8), Buffer.alloc(1100 * 1024, 7)]);

beforeAll(async () => {
  site = await fixtureSite();
  site.routes.set('/og.png', serve('image/png', makePng(40, 21)));
  site.routes.set('/icon.png', serve('image/png', ICON));
  site.routes.set('/big.png', serve('image/png', BIG));
  site.routes.set('/fake.png', serve('image/png', '<html>not an image</html>'));
  site.routes.set('/with-images', serve('text/html', page('<meta property="og:image" content="/og.png"><link rel="icon" href="/icon.png">')));
  site.routes.set('/oversized', serve('text/html', page('<meta property="og:image" content="/big.png"><link rel="shortcut icon" href="/fake.png">')));
  site.routes.set('/broken', serve('text/html', page('<meta property="og:image" content="/missing.png">')));
});
afterAll(() => site.close());
beforeEach(async () => {
  t = await capturesApp();
});
afterEach(() => t.close());

describe('pictures kept at capture time', () => {
  it('keeps the og:image and the declared favicon, served with their type', async () => {
    const id = await postCapture(t, { title: 'Soil', content_type: 'article', url: site.url('/with-images') });
    const c = await settled(t, id);
    expect(c.status).toBe('completed');
    expect(c.metadata.kept_image).toMatchObject({ mime: 'image/png', byte_size: makePng(40, 21).length });
    expect(c.metadata.kept_favicon).toMatchObject({ mime: 'image/png' });
    const img = await t.req('GET', `/api/v1/captures/${id}/image`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    expect(img.headers.get('cache-control')).toBe('private, no-cache');
    expect(Buffer.from(await img.arrayBuffer()).equals(makePng(40, 21))).toBe(true);
    const again = await t.app.request(`/api/v1/captures/${id}/image`, { headers: { Authorization: `ApiKey ${t.key}`, 'If-None-Match': img.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const fav = await t.req('GET', `/api/v1/captures/${id}/favicon`);
    expect(fav.status).toBe(200);
    expect(Buffer.from(await fav.arrayBuffer()).equals(ICON)).toBe(true);
  });

  it('ignores an oversized image and a favicon that is not an image, and the capture still completes', async () => {
    const id = await postCapture(t, { title: 'Big', content_type: 'article', url: site.url('/oversized') });
    const c = await settled(t, id);
    expect(c.status).toBe('completed');
    expect(c.metadata.kept_image).toBeUndefined();
    expect(c.metadata.images_skipped.image).toMatch(/larger than/);
    expect(c.metadata.images_skipped.favicon).toMatch(/not an image/);
    await expectProblem(await t.req('GET', `/api/v1/captures/${id}/image`), 404, 'not_found');
    await expectProblem(await t.req('GET', `/api/v1/captures/${id}/favicon`), 404, 'not_found');
  });

  it('a missing image (404) and no favicon anywhere leave no picture, not a failure', async () => {
    const id = await postCapture(t, { title: 'Broken', content_type: 'article', url: site.url('/broken') });
    const c = await settled(t, id);
    expect(c.status).toBe('completed');
    expect(c.metadata.images_skipped.image).toMatch(/HTTP 404/);
    expect(site.hits.get('/favicon.ico')).toBeGreaterThan(0);
    await expectProblem(await t.req('GET', `/api/v1/captures/${id}/image`), 404, 'not_found');
  });

  it('a note has no picture; an unknown capture is 404; another tenant cannot read one', async () => {
    const note = await postCapture(t, { title: 'Just a note', content_type: 'note', selected_text: 'hello' });
    await settled(t, note);
    await expectProblem(await t.req('GET', `/api/v1/captures/${note}/image`), 404, 'not_found');
    await expectProblem(await t.req('GET', '/api/v1/captures/no-such-capture/favicon'), 404, 'not_found');
    const id = await postCapture(t, { title: 'Soil', content_type: 'article', url: site.url('/with-images') });
    await settled(t, id);
    const beta = await t.tenant('beta');
    await expectProblem(await t.req('GET', `/api/v1/captures/${id}/image`, undefined, beta.auth), 404, 'not_found');
    await expectProblem(await t.req('GET', `/api/v1/captures/${id}/favicon`, undefined, beta.auth), 404, 'not_found');
  });

  it('lists the captures of a node (the node page links back with it), per tenant', async () => {
    const id = await postCapture(t, { title: 'Soil', content_type: 'article', url: site.url('/with-images') });
    const c = await settled(t, id);
    const mine = await (await t.req('GET', `/api/v1/captures?node_id=${c.node_id}`)).json();
    expect(mine.data.map((x: { id: string }) => x.id)).toEqual([id]);
    expect(mine.total).toBe(1);
    const other = await (await t.req('GET', `/api/v1/captures?node_id=${c.node_id}`, undefined, (await t.tenant('beta')).auth)).json();
    expect(other.total).toBe(0);
  });
});

describe('favicon discovery', () => {
  it('prefers <link rel=icon>, resolves it against the page, falls back to /favicon.ico', () => {
    expect(faviconUrl('<link rel="icon" href="i/f.png">', 'https://a.example/x/y')).toBe('https://a.example/x/i/f.png');
    expect(faviconUrl('<link rel="Shortcut Icon" href="/f.ico">', 'https://a.example/x')).toBe('https://a.example/f.ico');
    expect(faviconUrl('<p>none</p>', 'https://a.example/deep/page')).toBe('https://a.example/favicon.ico');
  });
});
