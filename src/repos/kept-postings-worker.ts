// Worker-thread entry (dist/keyword-worker.js) behind KeptPostingsReader: reads a tenant's
// kept postings (kept-postings-read.ts) on its own read-only connection, in one read
// transaction (one snapshot), and hands the typed arrays back without copying them. The
// main thread stays free to answer requests meanwhile: a term held by most of a million
// notes takes ~1 s to read, which the main thread could not slice.
import { parentPort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { readBuffers, readKept, type ReadOutcome } from './kept-postings-read.js';

export interface ReadRequest {
  id: number;
  path: string;
  table: string;
  weights: number[];
  floor: number;
  ceiling: number;
}

export type ReadReply = { id: number; ok: true; outcome: ReadOutcome } | { id: number; ok: false; error: string };

parentPort!.on('message', (req: ReadRequest) => {
  let db: Database.Database | undefined;
  try {
    db = new Database(req.path, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    db.pragma('temp_store = MEMORY'); // as the main connection: GROUP BY's sorter never spills to /tmp
    const conn = db;
    const outcome = conn.transaction(() => {
      const steps = readKept(conn, req.table, req.weights, req.floor, req.ceiling, Infinity);
      for (;;) {
        const r = steps.next();
        if (r.done) return r.value;
      }
    })();
    const reply: ReadReply = { id: req.id, ok: true, outcome };
    parentPort!.postMessage(reply, typeof outcome === 'string' ? [] : readBuffers(outcome));
  } catch (e) {
    parentPort!.postMessage({ id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) } satisfies ReadReply);
  } finally {
    db?.close();
  }
});
