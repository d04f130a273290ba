// Requests that end badly must never end the server: a multipart body cut before its
// closing boundary, a JSON body whose client hangs up half-way. Run against the real
// process, because what is at stake is the process itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';
import { rawRequest } from '../helpers/raw-socket.js';

let server: ChildServer;
let auth: string;

beforeAll(async () => {
  const dir = tempDataDir();
  server = await startServer(dir);
  auth = `ApiKey ${credentials(dir).api_key}`;
});
afterAll(async () => {
  await server?.stop();
});

async function alive(): Promise<void> {
  const res = await fetch(`${server.url}/health`);
  expect(res.status).toBe(200);
}

const raw = (bytes: string, closeAfterWrite = false) => rawRequest(server.url, bytes, closeAfterWrite);

describe('hostile requests', () => {
  it('a multipart upload that ends before its closing boundary is a 400 and the server lives on', async () => {
    const body = '--b42\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\n\r\n';
    const res = await fetch(`${server.url}/api/v1/captures/upload`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'multipart/form-data; boundary=b42' },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await res.json()).code).toBe('validation_failed');
    await alive();
  });

  it('a truncated multipart body inside a header is a 400 too', async () => {
    const res = await fetch(`${server.url}/api/v1/captures/upload`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'multipart/form-data; boundary=b42' },
      body: '--b42\r\nContent-Disposition: form-da',
    });
    expect(res.status).toBe(400);
    await alive();
  });

  it('a client that hangs up half-way through a JSON or multipart body is not logged as an error', async () => {
    const { host } = new URL(server.url);
    const json = `POST /api/v1/nodes HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title": "half`;
    const upload = `POST /api/v1/captures/upload HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${auth}\r\nContent-Type: multipart/form-data; boundary=b42\r\nContent-Length: 100000\r\n\r\n--b42\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhel`;
    await raw(json, true);
    await raw(upload, true);
    // The server learns of each hang-up on its own schedule; a few round trips later it has.
    for (let i = 0; i < 5; i++) await alive();
    expect(server.stderr()).not.toContain('ERROR');
  });
});
