import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, type TestApp } from '../helpers/app.js';
import { makeDocx, makePdf, makePng } from '../fixtures/generate.js';
import { capturesApp, postCapture, upload } from './helpers.js';

let t: TestApp;
beforeEach(async () => {
  t = await capturesApp();
});
afterEach(() => t.close());

describe('POST /captures', () => {
  it('answers 201 {id, status: pending} with the capture and its job committed', async () => {
    const res = await t.req('POST', '/api/v1/captures', { title: 'A note', content_type: 'note', source: 'cli', selected_text: 'Remember the milk' });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ id: expect.stringMatching(/^cap_/), status: 'pending' });
    expect(await t.s.repos.jobs.pendingOfKind(t.tenantId, 'capture_process')).toBe(1);
  });
  it('validates the body', async () => {
    await expectProblem(await t.req('POST', '/api/v1/captures', { content_type: 'note', source: 'api' }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/captures', { title: 'x', content_type: 'podcast', source: 'api' }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/captures', { title: 'x', content_type: 'note', source: 'fax' }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/captures', { title: 'x', content_type: 'note', source: 'api', colour: 'red' }), 400, 'validation_failed');
    const bad = await expectProblem(await t.req('POST', '/api/v1/captures', { title: 'x', content_type: 'article', source: 'api', url: 'javascript:alert(1)' }), 400, 'validation_failed');
    expect(bad.errors?.[0].path).toBe('url');
    await expectProblem(await t.req('POST', '/api/v1/captures', { title: '', content_type: 'note', source: 'api' }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/captures', '{"title": '), 400, 'validation_failed');
  });
});

describe('GET /captures/check', () => {
  it('recognises a URL however it was shared', async () => {
    const id = await postCapture(t, { title: 'Post', content_type: 'article', url: 'https://Example.com:443/blog/post/?utm_source=x#top', selected_text: 'hi' });
    for (const u of ['https://example.com/blog/post', 'HTTPS://EXAMPLE.COM/blog/post?fbclid=1', 'https://example.com/blog/post/#comments']) {
      const res = await t.req('GET', `/api/v1/captures/check?url=${encodeURIComponent(u)}`);
      expect(res.status, u).toBe(200);
      const c = await res.json();
      expect(c.id).toBe(id);
      expect(c.url_normalized).toBe('https://example.com/blog/post');
    }
    await expectProblem(await t.req('GET', `/api/v1/captures/check?url=${encodeURIComponent('https://example.com/blog/other')}`), 404, 'not_found');
    await expectProblem(await t.req('GET', '/api/v1/captures/check?url=notaurl'), 400, 'validation_failed');
    await expectProblem(await t.req('GET', '/api/v1/captures/check'), 400, 'validation_failed');
  });
  it('never answers for another tenant', async () => {
    await postCapture(t, { title: 'Post', content_type: 'article', url: 'https://example.com/a', selected_text: 'hi' });
    const beta = await t.tenant('beta');
    await expectProblem(await t.req('GET', `/api/v1/captures/check?url=${encodeURIComponent('https://example.com/a')}`, undefined, beta.auth), 404, 'not_found');
  });
});

describe('POST /captures/upload', () => {
  it('accepts each supported type and stores the bytes', async () => {
    const files: Array<[Uint8Array, string, string]> = [
      [await makePdf(), 'paper.pdf', 'application/pdf'],
      [makePng(), 'shot.png', 'image/png'],
      [await makeDocx(), 'notes.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [new TextEncoder().encode('plain words'), 'a.txt', 'text/plain'],
      [new TextEncoder().encode('# Heading\n\n- a\n- b'), 'b.md', 'text/markdown'],
    ];
    for (const [bytes, name, mime] of files) {
      const res = await upload(t, bytes, name, { why: 'for later' });
      expect(res.status, name).toBe(201);
      const { id, status } = await res.json();
      expect(status).toBe('pending');
      const c = await (await t.req('GET', `/api/v1/captures/${id}`)).json();
      expect(c.metadata).toMatchObject({ detected_mime: mime, byte_size: bytes.length, filename: name });
      expect(c.why).toBe('for later');
      const raw = await t.req('GET', `/api/v1/captures/${id}/content`);
      expect(raw.headers.get('content-type')).toBe(mime);
      expect(new Uint8Array(await raw.arrayBuffer())).toEqual(new Uint8Array(bytes));
    }
  });
  it('takes an optional source field (default api)', async () => {
    const a = await (await upload(t, makePng(), 'a.png', { source: 'cli' })).json();
    expect((await (await t.req('GET', `/api/v1/captures/${a.id}`)).json()).source).toBe('cli');
    const b = await (await upload(t, makePng(), 'b.png')).json();
    expect((await (await t.req('GET', `/api/v1/captures/${b.id}`)).json()).source).toBe('api');
    await expectProblem(await upload(t, makePng(), 'c.png', { source: 'fax' }), 400, 'validation_failed');
  });
  it('uses the title field, else the file name', async () => {
    const a = await (await upload(t, makePng(), 'holiday-photo.png')).json();
    expect((await (await t.req('GET', `/api/v1/captures/${a.id}`)).json()).title).toBe('holiday-photo');
    const b = await (await upload(t, makePng(), 'x.png', { title: 'Sunset' })).json();
    expect((await (await t.req('GET', `/api/v1/captures/${b.id}`)).json()).title).toBe('Sunset');
  });
  it('415 for a spoofed extension, a disallowed type, or not multipart', async () => {
    await expectProblem(await upload(t, makePng(), 'report.pdf'), 415, 'unsupported_media_type');
    await expectProblem(await upload(t, await makePdf(), 'image.png'), 415, 'unsupported_media_type');
    // A saved page (.html) is accepted (test/interop/saved-page.test.ts); plain text named .html is not.
    await expectProblem(await upload(t, new TextEncoder().encode('no markup here at all'), 'page.html'), 415, 'unsupported_media_type');
    await expectProblem(await upload(t, Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0]), 'tool.exe'), 415, 'unsupported_media_type');
    await expectProblem(await upload(t, Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00junkjunkjunk'), 'fake.docx'), 415, 'unsupported_media_type');
    await expectProblem(await t.req('POST', '/api/v1/captures/upload', { file: 'x' }), 415, 'unsupported_media_type');
    expect(await t.s.repos.jobs.pendingOfKind(t.tenantId, 'capture_process')).toBe(0);
  });
  it('400 without a file or with an empty one', async () => {
    const form = new FormData();
    form.append('title', 'no file');
    await expectProblem(await t.req('POST', '/api/v1/captures/upload', form), 400, 'validation_failed');
    await expectProblem(await upload(t, new Uint8Array(), 'empty.txt'), 400, 'validation_failed');
  });
  it('413 past 25 MB, refused while streaming, with Connection: close', async () => {
    const big = new Uint8Array(25 * 1024 * 1024 + 10);
    big.set(makePng().subarray(0, 8));
    const res = await upload(t, big, 'huge.png');
    expect(res.headers.get('connection')).toBe('close');
    await expectProblem(res, 413, 'payload_too_large');
    expect(await t.s.repos.jobs.pendingOfKind(t.tenantId, 'capture_process')).toBe(0);
  });
  it('413 at once when the declared length is over the limit', async () => {
    const res = await t.app.request('/api/v1/captures/upload', {
      method: 'POST',
      headers: { Authorization: `ApiKey ${t.key}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(30 * 1024 * 1024) },
      body: '--x--',
    });
    await expectProblem(res, 413, 'payload_too_large');
  });
  it('a file of exactly 25 MB is accepted', async () => {
    const txt = new Uint8Array(25 * 1024 * 1024).fill(97);
    expect((await upload(t, txt, 'long.txt')).status).toBe(201);
  });
});

describe('OpenAPI', () => {
  it('documents every capture route, including the streamed upload', async () => {
    const doc = await (await t.req('GET', '/api/v1/openapi.json')).json();
    for (const p of ['/api/v1/captures', '/api/v1/captures/upload', '/api/v1/captures/check', '/api/v1/captures/{id}', '/api/v1/captures/{id}/content', '/api/v1/captures/{id}/retry', '/api/v1/captures/{id}/reingest', '/api/v1/captures/{id}/archive', '/api/v1/captures/{id}/unarchive', '/api/v1/captures/{id}/dismiss', '/api/v1/captures/{id}/activity', '/api/v1/captures/{id}/provenance']) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(doc.paths['/api/v1/captures/upload'].post.requestBody.content['multipart/form-data']).toBeDefined();
  });
});
