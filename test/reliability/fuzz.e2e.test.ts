// The fuzzer: walks GET /api/v1/openapi.json and sends malformed requests to every
// operation of a real server process. Requires 0 × 5xx, every 4xx problem+json, the process
// alive, and PRAGMA integrity_check ok afterwards. RHIZOME_FUZZ_REQUESTS sets the count
// (400 by default, what `npm test` runs; `npm run test:reliability` sends 5,000).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';
import { casesFor, rng, type FuzzRequest, type OpenApi } from './fuzz-cases.js';

const TOTAL = Number(process.env.RHIZOME_FUZZ_REQUESTS ?? 400);
const SEED = Number(process.env.RHIZOME_FUZZ_SEED ?? 13);
const CONCURRENCY = 8;

let server: ChildServer;
let dir: string;
let auth: string;

beforeAll(async () => {
  dir = tempDataDir();
  // Throttles off: the fuzzer's bad credentials would otherwise turn into 429s (also fine, but noisier).
  server = await startServer(dir, 0, {}, { limits: { authFailuresPerAddress: 0, authFailuresPerKey: 0 } });
  auth = `ApiKey ${credentials(dir).api_key}`;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/**
 * Errors are problem+json, except the authorization server's: OAuth's JSON errors from its
 * endpoints (what OAuth clients parse), error pages from its browser pages; and the MCP
 * transport's JSON-RPC errors on /mcp (what MCP clients parse, e.g. 406 for a request that
 * does not accept text/event-stream).
 */
function errorTypeFits(path: string, type: string): boolean {
  if (path === '/mcp' || path.startsWith('/mcp?')) return type.startsWith('application/json') || type.startsWith('application/problem+json');
  if (path.startsWith('/oauth/authorize')) return type.startsWith('text/html') || type.startsWith('application/problem+json');
  if (path.startsWith('/oauth/')) return type.startsWith('application/json') || type.startsWith('application/problem+json');
  return type.startsWith('application/problem+json');
}

async function send(req: FuzzRequest): Promise<{ status: number; type: string } | { error: string }> {
  try {
    const res = await fetch(server.url + req.path, { method: req.method, headers: req.headers, body: req.body as BodyInit | undefined, signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    return { status: res.status, type: res.headers.get('content-type') ?? '' };
  } catch (e) {
    return { error: (e as Error).message + ((e as { cause?: Error }).cause ? `: ${(e as { cause: Error }).cause.message}` : '') };
  }
}

describe(`fuzzing the API from its OpenAPI document (${TOTAL} requests, seed ${SEED})`, () => {
  it('no 5xx, every 4xx problem+json, the process alive, the database intact', async () => {
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as OpenApi;
    const ops = Object.entries(doc.paths).flatMap(([p, byMethod]) => Object.entries(byMethod).map(([m, op]) => ({ p, m, op })));
    expect(ops.length).toBeGreaterThan(30);
    const r = rng(SEED);
    const queue: FuzzRequest[] = [];
    for (let _round = 0; queue.length < TOTAL; _round++) {
      for (const { p, m, op } of ops) queue.push(...casesFor(doc, p, m, op, r, auth));
    }
    queue.length = TOTAL;

    const bad: string[] = [];
    const statuses = new Map<number, number>();
    let i = 0;
    let closed = 0;
    const worker = async () => {
      while (i < queue.length) {
        const req = queue[i++];
        const res = await send(req);
        const where = `${req.method} ${req.path.slice(0, 120)} [${req.label}]`;
        if ('error' in res) {
          // A connection the server closed on purpose (oversized headers) is fine; the process must live.
          if (server.proc.exitCode !== null) bad.push(`${where}: server died (${res.error})`);
          closed++;
          continue;
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) bad.push(`${where}: ${res.status}`);
        else if (res.status >= 400 && !errorTypeFits(req.path, res.type)) bad.push(`${where}: ${res.status} as ${res.type}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    console.log(JSON.stringify({ fuzz: { requests: queue.length, statuses: Object.fromEntries([...statuses].sort()), connections_closed: closed } }));
    expect(bad.slice(0, 30)).toEqual([]);
    expect(server.proc.exitCode).toBeNull();
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect(server.stderr()).not.toMatch(/unhandled error/);

    await server.stop();
    const db = new Database(join(dir, 'rhizome.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  }, 600_000);
});
