// The archived copy of a captured page: made in the background after the capture completes,
// self-contained (styles and images inlined through the SSRF-guarded fetcher, scripts
// removed), within the size cap, served under a CSP that lets nothing run or load; made
// again on demand; in the export. And the check that marks captures whose original is gone.
import { raw } from '../helpers/raw.js';
import { afterEach, describe, expect, it } from 'vitest';
import { makePdf, makePng } from '../fixtures/generate.js';
import { expectProblem, type TestApp } from '../helpers/app.js';
import { readZip } from '../../src/interop/sources/zip.js';
import { capturesApp, fixtureSite, postCapture, serve, settled, type Site } from './helpers.js';

let t: TestApp;
let site: Site;
afterEach(async () => {
  await t?.close();
  await site?.close();
});

const PAGE = (title: string) => `<!doctype html><html><head><title>${title}</title>
<link rel="stylesheet" href="/style.css"><link rel="preload" href="/font.woff2"><script src="/app.js"></script>
<script>document.title = 'hacked'</script><base href="/"></head>
<body onload="steal()"><h1>${title}</h1><p style="background:url(dot.png)">A long article about soil and compost, with enough words to be an article. Compost feeds the soil.</p>
<img src="/photo.png" srcset="/photo-2x.png 2x" alt="photo"><iframe src="https://example.com/ad"></iframe>
<a href="javascript:alert(1)">bad</a> <a href="/next">next page</a></body></html>`;

async function withSite(config: Record<string, unknown> = {}) {
  site = await fixtureSite();
  t = await capturesApp(config);
  site.routes.set('/article', serve('text/html; charset=utf-8', PAGE('Soil article')));
  site.routes.set('/style.css', serve('text/css', '@import "/extra.css"; h1 { color: rgb(10, 120, 40); background-image: url("/dot.png"); }'));
  site.routes.set('/extra.css', serve('text/css', 'p { font-size: 19px; }'));
  site.routes.set('/photo.png', serve('image/png', makePng(40, 30)));
  site.routes.set('/dot.png', serve('image/png', makePng(2, 2)));
  site.routes.set('/app.js', serve('text/javascript', 'steal()'));
}

describe('archived copy', () => {
  it('keeps a self-contained, inert HTML copy made after the capture completes, served under a sandboxing CSP', async () => {
    await withSite();
    const id = await postCapture(t, { title: 'Soil article', content_type: 'article', url: site.url('/article') });
    const cap = await settled(t, id);
    expect(cap.status).toBe('completed');
    const res = await t.req('GET', `/api/v1/captures/${id}/snapshot`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^sandbox;/);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src/);
    const html = await res.text();
    expect(html).not.toMatch(/<script|onload=|javascript:|<iframe|<base|srcset|rel="preload"/i);
    expect(html).toContain('rgb(10, 120, 40)'); // the stylesheet, inlined
    expect(html).toContain('font-size: 19px'); // its @import, inlined
    expect(html).toMatch(/<img src="data:image\/png;base64,[^"]+" alt="photo">/);
    expect(html.match(/data:image\/png;base64,/g)!.length).toBeGreaterThanOrEqual(3); // <img>, the CSS url() and the style attribute's
    // Nothing left points at the network except plain links.
    const urls = [...html.matchAll(/(?:src|href)="(https?:[^"]+)"/g)].map((m) => m[1]);
    expect(urls).toEqual([site.url('/next')]);
    expect(html).toContain('http-equiv="Content-Security-Policy"');
    expect(site.hits.get('/app.js') ?? 0).toBe(0); // a script is never even fetched
    const activity = JSON.stringify(await (await t.req('GET', `/api/v1/captures/${id}/activity`)).json());
    expect(activity).toMatch(/"kind":"completed".*"kind":"snapshot_kept"/);
  });

  it('stays within the size cap: resources past it are left out, a page past it is not kept', async () => {
    await withSite({ archiveMaxBytes: 3000 });
    site.routes.set('/photo.png', serve('image/png', Buffer.concat([makePng(40, 30), Buffer.alloc(20_000)])));
    const id = await postCapture(t, { title: 'Soil article', content_type: 'article', url: site.url('/article') });
    await settled(t, id);
    const html = await (await t.req('GET', `/api/v1/captures/${id}/snapshot`)).text();
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(3000);
    expect(html).toMatch(/<img alt="photo">/); // the big photo did not fit: no src, and no request left

    site.routes.set('/huge', serve('text/html', `<html><body><p>${'word '.repeat(2000)}</p></body></html>`));
    const big = await postCapture(t, { title: 'Huge', content_type: 'article', url: site.url('/huge') });
    await settled(t, big);
    await expectProblem(await t.req('GET', `/api/v1/captures/${big}/snapshot`), 404, 'not_found');
  });

  it('a PDF is kept as it came; notes have no copy', async () => {
    await withSite();
    const pdf = await makePdf();
    site.routes.set('/paper.pdf', serve('application/pdf', pdf));
    const id = await postCapture(t, { title: 'Paper', content_type: 'pdf', url: site.url('/paper.pdf') });
    await settled(t, id);
    const res = await t.req('GET', `/api/v1/captures/${id}/snapshot`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
    const note = await postCapture(t, { title: 'Note', content_type: 'note', selected_text: 'just words' });
    await settled(t, note);
    await expectProblem(await t.req('GET', `/api/v1/captures/${note}/snapshot`), 404, 'not_found');
  });

  it('re-archives on demand with the page as it is now; another tenant gets 404', async () => {
    await withSite();
    const id = await postCapture(t, { title: 'Soil article', content_type: 'article', url: site.url('/article') });
    await settled(t, id);
    site.routes.set('/article', serve('text/html', PAGE('Soil article, second edition')));
    const other = (await t.tenant('beta')).auth;
    await expectProblem(await t.req('POST', `/api/v1/captures/${id}/snapshot`, undefined, other), 404, 'not_found');
    await expectProblem(await t.req('GET', `/api/v1/captures/${id}/snapshot`, undefined, other), 404, 'not_found');
    const res = await t.req('POST', `/api/v1/captures/${id}/snapshot`);
    expect(res.status).toBe(202);
    await t.s.queue.idle();
    expect(await (await t.req('GET', `/api/v1/captures/${id}/snapshot`)).text()).toContain('second edition');
  });

  it('goes into the Markdown export beside its note', async () => {
    await withSite();
    const id = await postCapture(t, { title: 'Soil article', content_type: 'article', url: site.url('/article') });
    await settled(t, id);
    const zip = new Uint8Array(await (await t.req('GET', '/api/v1/exports/markdown')).arrayBuffer());
    const { files } = await readZip(zip);
    const copy = files.find((f) => f.path.endsWith('archived page.html'));
    expect(copy).toBeDefined();
    expect(new TextDecoder().decode(copy!.bytes)).toContain('rgb(10, 120, 40)');
  });
});

describe('check-links', () => {
  it('marks a capture whose page is now 404 or 410 as gone, and marks it back when the page returns', async () => {
    await withSite();
    site.routes.set('/kept', serve('text/html', PAGE('Kept')));
    site.routes.set('/moved', serve('text/html', PAGE('Moved')));
    const gone = await postCapture(t, { title: 'Soil article', content_type: 'article', url: site.url('/article') });
    const kept = await postCapture(t, { title: 'Kept', content_type: 'article', url: site.url('/kept') });
    const moved = await postCapture(t, { title: 'Moved', content_type: 'article', url: site.url('/moved') });
    await t.s.queue.idle();
    site.routes.delete('/article');
    site.routes.set('/moved', (_q, r) => r.writeHead(410).end());
    const res = await t.req('POST', '/api/v1/captures/check-links');
    expect(res.status).toBe(200);
    const out = await res.json();
    expect(out.checked).toBe(3);
    expect(out.gone.map((g: any) => [g.capture_id, g.reason]).sort()).toEqual([[gone, 'HTTP 404'], [moved, 'HTTP 410']].sort());
    const g = await (await t.req('GET', `/api/v1/captures/${gone}`)).json();
    expect(g.metadata).toMatchObject({ source_status: 'gone', source_gone_reason: 'HTTP 404' });
    expect((await (await t.req('GET', `/api/v1/captures/${kept}`)).json()).metadata.source_status).toBe('ok');
    // The copy is still here.
    expect((await t.req('GET', `/api/v1/captures/${gone}/snapshot`)).status).toBe(200);
    // Another tenant's check sees none of these.
    expect((await (await t.req('POST', '/api/v1/captures/check-links', undefined, (await t.tenant('beta')).auth)).json()).checked).toBe(0);

    site.routes.set('/article', serve('text/html', PAGE('Back')));
    await t.req('POST', '/api/v1/captures/check-links');
    expect((await (await t.req('GET', `/api/v1/captures/${gone}`)).json()).metadata.source_status).toBe('ok');
  });

  it('marks a capture whose domain no longer resolves as gone (a name under .invalid, which never resolves: RFC 6761)', async () => {
    await withSite();
    const url = 'https://essays.rhizome-test.invalid/coppicing';
    const page = '<!doctype html><html><head><title>Coppicing</title></head><body><h1>Coppicing</h1><p>Coppiced hazel regrows from the stool for centuries, giving poles every seven years.</p></body></html>';
    const id = await postCapture(t, { title: 'Coppicing', content_type: 'article', url, raw_content: page, source: 'browser-extension' });
    await t.s.queue.idle();
    expect((await (await t.req('GET', `/api/v1/captures/${id}`)).json()).status).toBe('completed');
    const out = await (await t.req('POST', '/api/v1/captures/check-links')).json();
    expect(out).toMatchObject({ checked: 1, unknown: 0, gone: [{ capture_id: id, url, reason: 'the domain no longer resolves' }] });
    const c = await (await t.req('GET', `/api/v1/captures/${id}`)).json();
    expect(c.metadata).toMatchObject({ source_status: 'gone', source_gone_reason: 'the domain no longer resolves' });
    expect(typeof c.metadata.source_gone_at).toBe('string');
    // Your copy is here: the page as the browser sent it.
    const copy = await t.req('GET', `/api/v1/captures/${id}/snapshot`);
    expect(copy.status).toBe(200);
    expect(await copy.text()).toContain('Coppiced hazel regrows');
  });

  it('runs weekly as a job for each tenant whose last check is a week old', async () => {
    await withSite();
    const id = await postCapture(t, { title: 'Soil article', content_type: 'article', url: site.url('/article') });
    await t.s.queue.idle();
    site.routes.delete('/article');
    const other = await t.tenant('beta'); // no captures: nothing to check
    const jobs = async () => await raw(t.s.db).prepare(`SELECT tenant_id FROM jobs WHERE kind = 'captures.check-links'`).all() as Array<{ tenant_id: string }>;
    expect(await t.s.captures.linkCheck.scheduleDue([t.tenantId, other.tenantId])).toBe(1);
    await t.s.queue.idle();
    expect((await (await t.req('GET', `/api/v1/captures/${id}`)).json()).metadata.source_status).toBe('gone');
    // Checked just now: not again until a week has passed; then again.
    expect(await t.s.captures.linkCheck.scheduleDue([t.tenantId])).toBe(0);
    expect(await jobs()).toEqual([]);
    t.clock.advance(6 * 24 * 3600 * 1000);
    expect(await t.s.captures.linkCheck.scheduleDue([t.tenantId])).toBe(0);
    t.clock.advance(1 * 24 * 3600 * 1000 + 1000);
    expect(await t.s.captures.linkCheck.scheduleDue([t.tenantId])).toBe(1);
    expect(await jobs()).toEqual([{ tenant_id: t.tenantId }]);
  });
});
