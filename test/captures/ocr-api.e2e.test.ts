// OCR end to end through the HTTP API: a screenshot uploaded or captured by URL becomes a
// node whose body is the text in the image, found by keyword search; a huge image still
// completes, with its placeholder and the reason in provenance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderOcrSamples } from '../../bench/eval/ocr.js';
import { closeOcr } from '../../src/ingest/ocr/index.js';
import type { TestApp } from '../helpers/app.js';
import { capturesApp, fixtureSite, postCapture, serve, settled, upload, type Site } from './helpers.js';
import { hugePng } from './ocr-helpers.js';

let t: TestApp;
let site: Site;
let shots: Map<string, Buffer>;

beforeAll(async () => {
  shots = await renderOcrSamples([
    { name: 'receipt', style: 'clean', font: 'DejaVu Sans', px: 15, lines: ['Receipt from Quillbrook Hardware', 'Two brass hinges and a tin of walnut varnish'] },
    { name: 'slide', style: 'dark', font: 'Liberation Sans', px: 20, lines: ['Roadmap: offline sync for the Marigold app'] },
  ]);
  t = await capturesApp();
  site = await fixtureSite();
  site.routes.set('/slide.png', serve('image/png', shots.get('slide')!));
});
afterAll(async () => {
  await t.close();
  await site.close();
  await closeOcr();
});

const keyword = async (q: string) => (await (await t.req('GET', `/api/v1/nodes?mode=keyword&query=${encodeURIComponent(q)}`)).json()) as { data: { id: string; title: string; body_markdown: string }[] };

describe('OCR through the API', () => {
  it('an uploaded PNG screenshot is found by a word that appears only in the image', async () => {
    const res = await upload(t, shots.get('receipt')!, 'IMG_0042.png');
    expect(res.status).toBe(201);
    const c = await settled(t, (await res.json()).id);
    expect(c.status).toBe('completed');
    expect(c.metadata).toMatchObject({ format: 'png', ocr: { status: 'ok', lines: 2 } });
    const hits = await keyword('quillbrook');
    expect(hits.data.map((n) => n.id)).toEqual([c.node_id]);
    expect(hits.data[0].body_markdown).toContain('Two brass hinges and a tin of walnut varnish');
    expect((await keyword('walnut varnish')).data[0]?.id).toBe(c.node_id);

    const prov = await (await t.req('GET', `/api/v1/captures/${c.id}/provenance`)).json();
    const extract = prov.stages.find((s: { stage: string }) => s.stage === 'extract');
    expect(extract.model).toMatch(/^image-ocr:tesseract\.js@\d+\.\d+\.\d+\+eng:4\.0\.0_best_int$/);
    expect(extract.output.ocr).toMatchObject({ model: expect.stringMatching(/^tesseract\.js@/), status: 'ok', lines: 2, ms: expect.any(Number) });
    expect(extract.output.ocr.confidence).toBeGreaterThan(0.8);
  });

  it('an image captured by URL (dark mode) is read too', async () => {
    const c = await settled(t, await postCapture(t, { title: 'Slide', content_type: 'image', url: site.url('/slide.png') }));
    expect(c.status).toBe('completed');
    expect((await keyword('marigold')).data.map((n) => n.id)).toEqual([c.node_id]);
  });

  it('a 20,000 × 20,000 PNG upload completes with its placeholder; OCR was refused, the server lives', async () => {
    const res = await upload(t, hugePng(20_000, 20_000), 'poster.png', { why: 'the concert poster' });
    expect(res.status).toBe(201);
    const c = await settled(t, (await res.json()).id);
    expect(c.status).toBe('completed');
    expect(c.metadata).toMatchObject({ width: 20_000, height: 20_000, ocr: { status: 'too_large', lines: 0, confidence: null } });
    const node = await (await t.req('GET', `/api/v1/nodes/${c.node_id}`)).json();
    expect(node.body_markdown).toMatch(/^Image \(PNG, 20000×20000 px\)\./);
    const prov = await (await t.req('GET', `/api/v1/captures/${c.id}/provenance`)).json();
    expect(prov.stages.find((s: { stage: string }) => s.stage === 'extract').output.ocr.detail).toMatch(/above the 40 MP OCR limit/);
    expect((await t.req('GET', '/api/v1/captures?per_page=1')).status).toBe(200);
  });
});
