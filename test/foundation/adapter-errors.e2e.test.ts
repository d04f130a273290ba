// Requests the Node HTTP layer rejects before Rhizome's app sees them still get
// problem+json 400 with Connection: close, over a raw socket against the real process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';
import { rawRequest } from '../helpers/raw-socket.js';

let server: ChildServer;
beforeAll(async () => {
  server = await startServer(tempDataDir());
});
afterAll(async () => {
  await server?.stop();
});

const raw = (bytes: string) => rawRequest(server.url, bytes);

function parse(resp: string) {
  const [head, ...rest] = resp.split('\r\n\r\n');
  const lines = head.split('\r\n');
  const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(lines[0].split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

const CASES: Array<[string, string, number]> = [
  ['request target *', 'GET * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400],
  ['malformed Host', 'GET /health HTTP/1.1\r\nHost: a b@c:x\r\n\r\n', 400],
  ['Host with a path', 'GET /health HTTP/1.1\r\nHost: evil.test/x\r\n\r\n', 400],
  ['bad request line', 'BLAH\r\n\r\n', 400],
  ['bad method token', 'G(T / HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ['header without colon', 'GET /health HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n', 400],
  ['bad HTTP version', 'GET /health HTTP/9.9\r\nHost: x\r\n\r\n', 400],
  ['NUL in the request target', 'GET /he\0alth HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ['conflicting Content-Length / Transfer-Encoding', 'POST /api/v1/nodes HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400],
  ['header block too large', `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(200 * 1024)}\r\n\r\n`, 431],
];

describe('responses the Node adapter writes itself', () => {
  for (const [name, bytes, status] of CASES) {
    it(`${name} → ${status} problem+json, Connection: close`, async () => {
      const r = parse(await raw(bytes));
      expect(r.status, r.body).toBe(status);
      expect(r.headers['content-type']).toBe('application/problem+json');
      expect(r.headers.connection).toBe('close');
      const body = JSON.parse(r.body);
      expect(body.status).toBe(status);
      expect(typeof body.code).toBe('string');
    });
  }

  it('the server is alive afterwards', async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
