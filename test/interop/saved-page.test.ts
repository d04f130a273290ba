// A web page saved from the browser (.html / .htm) is an upload like any other and goes
// through the same readability extraction as a URL capture.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capturesApp, settled, upload } from '../captures/helpers.js';
import { expectProblem, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => { t = await capturesApp(); });
afterEach(async () => { await t.close(); });

const page = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Sourdough starter care | Bakery Blog</title></head>
<body><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav>
<article><h1>Sourdough starter care</h1>
${'<p>Feed the starter twice a day with equal weights of flour and water, and keep it somewhere warm so the yeast stays lively. </p>'.repeat(8)}
<ul><li>Discard half before feeding</li><li>Use rye flour for a boost</li></ul></article>
<footer>Copyright 2024 Bakery Blog. Subscribe to our newsletter.</footer></body></html>`;

describe('saved page upload', () => {
  for (const name of ['starter.html', 'starter.htm']) {
    it(`${name} becomes an article node with the page's main text`, async () => {
      const res = await upload(t, new TextEncoder().encode(page), name);
      expect(res.status).toBe(201);
      const cap = await settled(t, (await res.json()).id);
      expect(cap).toMatchObject({ status: 'completed', content_type: 'article' });
      const node = await (await t.req('GET', `/api/v1/nodes/${cap.node_id}`)).json();
      expect(node.body_markdown).toContain('Feed the starter twice a day');
      expect(node.body_markdown).toContain('Discard half before feeding');
      expect(node.body_markdown).not.toContain('Subscribe to our newsletter');
    });
  }

  it('a .html name on content that is not HTML is still a 415', async () => {
    await expectProblem(await upload(t, new TextEncoder().encode('just words, no markup at all'), 'fake.html'), 415, 'unsupported_media_type');
  });
});
