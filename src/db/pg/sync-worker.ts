// Worker-thread entry (dist/pg-worker.js) behind PgSync: owns the node-postgres connections
// and answers one request at a time while the calling thread waits (synckit). A connection
// that fails is dropped and made again on the next call, so the caller sees the outage as
// errors and the recovery as answers, with no restart. Errors come back as values: a
// structured clone would lose node-postgres's SQLSTATE `code`.
import type pg from 'pg';
import { runAsWorker } from 'synckit';
import { connectPg, PgUnreachableError } from './connect.js';

export type PgRequest =
  | { op: 'open'; url: string; connectTimeoutMs: number; statementTimeoutMs: number }
  | { op: 'query'; handle: number; sql: string; params: unknown[]; begin?: boolean; before?: Array<{ sql: string; params: unknown[] }> }
  | { op: 'close'; handle: number };

export type PgReply =
  | { ok: true; handle?: number; rows?: Record<string, unknown>[]; rowCount?: number | null }
  | { ok: false; kind: 'unavailable' | 'query'; message: string; code?: string };

interface Conn {
  url: string;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  client: pg.Client | null;
  names: Map<string, string>;
}

const conns = new Map<number, Conn>();
const MAX_PREPARED = 500;
let nextHandle = 1;

/** SQLSTATEs that mean the server or the link went away (08: connection, 57P: shut down), not a bad statement. */
const UNAVAILABLE = /^(08(?!P01)|57P0)/;
/** node-postgres's own errors (no SQLSTATE) for a connection that broke. */
const BROKEN = /Connection terminated|ECONNRESET|ECONNREFUSED|EPIPE|not queryable|connection error|timeout expired/i;

async function client(c: Conn): Promise<pg.Client> {
  if (c.client) return c.client;
  const fresh = await connectPg(c.url, { connectTimeoutMs: c.connectTimeoutMs });
  fresh.on('error', () => {
    if (c.client === fresh) c.client = null;
  });
  if (c.statementTimeoutMs > 0) await fresh.query(`SET statement_timeout = ${Math.floor(c.statementTimeoutMs)}`);
  c.names.clear(); // prepared statements belong to the old session
  c.client = fresh;
  return fresh;
}

function failure(e: unknown, c?: Conn): PgReply {
  const err = e as { code?: string; message?: string };
  const lost = e instanceof PgUnreachableError || (err.code ? UNAVAILABLE.test(err.code) : BROKEN.test(err.message ?? ''));
  if (lost && c?.client) {
    c.client.end().catch(() => {});
    c.client = null;
  }
  return { ok: false, kind: lost ? 'unavailable' : 'query', message: (err.message ?? String(e)).split('\n')[0], code: err.code };
}

// Statements with parameters are prepared once per session and reused by name (up to
// MAX_PREPARED shapes: SQL built per call, such as IN lists, runs unnamed past that).
function run(c: Conn, cl: pg.Client, sql: string, params: unknown[]) {
  let name = params.length ? c.names.get(sql) : undefined;
  if (params.length && !name && c.names.size < MAX_PREPARED) c.names.set(sql, (name = `rz${c.names.size}`));
  return cl.query(name ? { name, text: sql, values: params } : sql);
}

runAsWorker(async (req: PgRequest): Promise<PgReply> => {
  if (req.op === 'open') {
    const c: Conn = { url: req.url, connectTimeoutMs: req.connectTimeoutMs, statementTimeoutMs: req.statementTimeoutMs, client: null, names: new Map() };
    try {
      await client(c);
    } catch (e) {
      return failure(e);
    }
    const handle = nextHandle++;
    conns.set(handle, c);
    return { ok: true, handle };
  }
  const c = conns.get(req.handle);
  if (!c) return { ok: false, kind: 'query', message: 'connection closed' };
  if (req.op === 'close') {
    conns.delete(req.handle);
    await c.client?.end().catch(() => {});
    return { ok: true };
  }
  try {
    const cl = await client(c);
    if (req.begin) await cl.query('BEGIN'); // the transaction's first statement brings it
    for (const d of req.before ?? []) await run(c, cl, d.sql, d.params); // PgSync.defer()
    const r = await run(c, cl, req.sql, req.params);
    return { ok: true, rows: r.rows, rowCount: r.rowCount };
  } catch (e) {
    return failure(e, c);
  }
});
