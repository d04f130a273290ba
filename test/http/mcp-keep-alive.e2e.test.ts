// POST /mcp on one kept-alive connection: malformed JSON-RPC, form and multipart bodies,
// an upper-case JSON type, missing or wrong Accept. Each is answered (a JSON-RPC error or a
// 4xx), never by a reset, and the connection stays usable for the next request.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';

let server: ChildServer;
let auth: string;

beforeAll(async () => {
  const dir = tempDataDir();
  server = await startServer(dir, 0);
  auth = `ApiKey ${credentials(dir).api_key}`;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const ACCEPT = 'application/json, text/event-stream';
const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const CASES: { name: string; type?: string; accept?: string; body: string; slow?: boolean; auth?: string }[] = [
  { name: 'malformed JSON', type: 'application/json', accept: ACCEPT, body: '{"jsonrpc":"2.0","id":1,' },
  { name: 'not JSON-RPC', type: 'application/json', accept: ACCEPT, body: '{"hello":"world"}' },
  { name: 'a JSON array of junk', type: 'application/json', accept: ACCEPT, body: '[1,2,3]' },
  { name: 'an empty body', type: 'application/json', accept: ACCEPT, body: '' },
  { name: 'JSON null', type: 'application/json', accept: ACCEPT, body: 'null' },
  { name: 'urlencoded', type: 'application/x-www-form-urlencoded', accept: ACCEPT, body: 'jsonrpc=2.0&id=1&method=initialize' },
  { name: 'multipart', type: 'multipart/form-data; boundary=XyZ', accept: ACCEPT, body: '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--XyZ--\r\n' },
  { name: 'broken multipart', type: 'multipart/form-data', accept: ACCEPT, body: 'no boundary at all' },
  { name: 'upper-case JSON type', type: 'APPLICATION/JSON', accept: ACCEPT, body: init },
  { name: 'text/plain', type: 'text/plain', accept: ACCEPT, body: init },
  { name: 'no content type', accept: ACCEPT, body: init },
  { name: 'no Accept', type: 'application/json', body: init },
  { name: 'wrong Accept', type: 'application/json', accept: 'text/html', body: init },
  { name: 'a valid initialize', type: 'application/json', accept: ACCEPT, body: init },
  // The body arrives well after the headers (a busy client): an answer the server gives
  // before reading it must not cost the connection.
  { name: 'wrong Accept, slow body', type: 'application/json', accept: 'text/html', body: init, slow: true },
  { name: 'urlencoded, slow body', type: 'application/x-www-form-urlencoded', accept: ACCEPT, body: 'a=b', slow: true },
  { name: 'bad credentials, slow body', type: 'application/json', accept: ACCEPT, body: init, slow: true, auth: 'ApiKey nope.nope' },
];

function send(agent: Agent, c: (typeof CASES)[number]): Promise<{ status: number; body: string; socket: unknown }> {
  const url = new URL(`${server.url}/mcp`);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Authorization: c.auth ?? auth, 'Content-Length': Buffer.byteLength(c.body) };
    if (c.type) headers['Content-Type'] = c.type;
    if (c.accept) headers.Accept = c.accept;
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body, socket: req.socket }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (!c.slow) return void req.end(c.body);
    req.flushHeaders();
    setTimeout(() => req.end(c.body), 800);
  });
}

describe('POST /mcp on a kept-alive connection', () => {
  it('answers every odd request with a JSON-RPC error or a 4xx, on the same connection, many times over', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sockets = new Set<unknown>();
      const wrong: string[] = [];
      for (let round = 0; round < 2; round++) {
        for (const c of CASES) {
          const r = await send(agent, c).catch((e: Error) => ({ status: 0, body: `${(e as NodeJS.ErrnoException).code ?? ''} ${e.message}`, socket: null }));
          sockets.add(r.socket);
          const ok = /valid initialize|upper-case JSON/.test(c.name) ? r.status === 200 : (r.status >= 400 && r.status < 500) || (r.status === 200 && /"error"/.test(r.body));
          if (!ok) wrong.push(`${c.name}: ${r.status} ${r.body.slice(0, 120)}`);
        }
      }
      expect(wrong).toEqual([]);
      expect(sockets.size).toBe(1); // never reset: one connection served all of them
    } finally {
      agent.destroy();
    }
  });
});
