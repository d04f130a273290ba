// Captures test helpers: an app whose queue runs, a loopback site to fetch from, and
// waiting for the pipeline to settle.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Config } from '../../src/config.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

export async function capturesApp(config: Partial<Config> = {}): Promise<TestApp> {
  const t = await makeTestApp({ config: { allowPrivateFetch: true, ...config } });
  await t.s.queue.start();
  return t;
}

/** Runs the queue until nothing is ready, then returns the capture as the API shows it. */
export async function settled(t: TestApp, id: string, auth?: string) {
  await t.s.queue.idle();
  const res = await t.req('GET', `/api/v1/captures/${id}`, undefined, auth);
  return res.json();
}

export async function postCapture(t: TestApp, body: Record<string, unknown>): Promise<string> {
  const res = await t.req('POST', '/api/v1/captures', { source: 'api', ...body });
  if (res.status !== 201) throw new Error(`capture failed: ${res.status} ${await res.text()}`);
  return (await res.json()).id;
}

export async function upload(t: TestApp, bytes: Uint8Array, filename: string, fields: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return t.req('POST', '/api/v1/captures/upload', form);
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface Site {
  url(path: string): string;
  routes: Map<string, Handler>;
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** A loopback web site whose pages the test defines. */
export async function fixtureSite(): Promise<Site> {
  const routes = new Map<string, Handler>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const h = routes.get(path);
    if (h) return h(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  const base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  return {
    url: (p) => `${base}${p}`,
    routes,
    hits,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export const serve = (type: string, body: string | Buffer): Handler => (_req, res) => res.writeHead(200, { 'content-type': type }).end(body);
