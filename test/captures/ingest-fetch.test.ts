import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError, safeFetch } from '../../src/ingest/fetch.js';

let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/page') return res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hello</p>');
    if (path === '/gz') return res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('zipped text'));
    if (path.startsWith('/hop/')) {
      const n = Number(path.split('/')[2]);
      return res.writeHead(302, { location: n > 0 ? `/hop/${n - 1}` : '/page' }).end();
    }
    if (path === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 97);
      let sent = 0;
      const pump = () => {
        while (sent < 40 && res.write(chunk)) sent++;
        if (sent < 40) res.once('drain', pump);
        else res.end();
      };
      return pump();
    }
    if (path === '/slow') return void setTimeout(() => res.end('late'), 2000);
    if (path === '/missing') return res.writeHead(404).end('nope');
    if (path === '/broken') return res.writeHead(503).end('down');
    if (path === '/movie') return res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '123456789' }).end();
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function fetchError(p: Promise<unknown>): Promise<FetchError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(FetchError);
    return e as FetchError;
  }
  throw new Error('expected a FetchError');
}

describe('safeFetch', () => {
  it('refuses loopback addresses unless private fetches are allowed', async () => {
    const e = await fetchError(safeFetch(`${base}/page`));
    expect(e.transient).toBe(false);
    expect(e.message).toMatch(/private or loopback/);
    const e2 = await fetchError(safeFetch(`http://localhost:${new URL(base).port}/page`));
    expect(e2.message).toMatch(/private address/);
    const byName = await safeFetch(`http://localhost:${new URL(base).port}/page`, { allowPrivate: true });
    expect(byName.bytes.toString()).toBe('<p>hello</p>');
    const ok = await safeFetch(`${base}/page`, { allowPrivate: true });
    expect(ok.status).toBe(200);
    expect(ok.contentType).toBe('text/html');
    expect(ok.bytes.toString()).toBe('<p>hello</p>');
  });
  it('decompresses gzip bodies', async () => {
    expect((await safeFetch(`${base}/gz`, { allowPrivate: true })).bytes.toString()).toBe('zipped text');
  });
  it('follows a bounded number of redirects', async () => {
    const ok = await safeFetch(`${base}/hop/2`, { allowPrivate: true, maxRedirects: 3 });
    expect(ok.finalUrl).toBe(`${base}/page`);
    expect(ok.redirects).toBe(3);
    const e = await fetchError(safeFetch(`${base}/hop/5`, { allowPrivate: true, maxRedirects: 3 }));
    expect(e.message).toMatch(/too many redirects/);
    expect(e.transient).toBe(false);
  });
  it('stops reading at the size cap', async () => {
    const e = await fetchError(safeFetch(`${base}/big`, { allowPrivate: true, maxBytes: 256 * 1024 }));
    expect(e.message).toMatch(/larger than/);
    expect(e.transient).toBe(false);
  });
  it('times out, as a transient error', async () => {
    const e = await fetchError(safeFetch(`${base}/slow`, { allowPrivate: true, timeoutMs: 200 }));
    expect(e.transient).toBe(true);
    expect(e.message).toMatch(/timed out/);
  });
  it('classifies HTTP errors: 404 permanent, 503 transient', async () => {
    expect((await fetchError(safeFetch(`${base}/missing`, { allowPrivate: true }))).transient).toBe(false);
    expect((await fetchError(safeFetch(`${base}/broken`, { allowPrivate: true }))).transient).toBe(true);
  });
  it('reads only the headers of media it should not download', async () => {
    const r = await safeFetch(`${base}/movie`, { allowPrivate: true, headersOnly: (t) => t.startsWith('video/') });
    expect(r.bodySkipped).toBe(true);
    expect(r.declaredBytes).toBe(123456789);
  });
  it('refuses non-http schemes', async () => {
    expect((await fetchError(safeFetch('file:///etc/passwd'))).transient).toBe(false);
  });
});
