// The keyword module's long reads on SQLite, in a thread of their own (keyword-read-thread.ts
// starts it): its own connection to the database file reads a large tenant's node lengths
// and the warm-up's postings, so a read of 100k rows (a common term: FTS5 sorts its
// instances by node) never holds the server's event loop. Reads only; each is read at the
// snapshot its statement starts with (WAL: writers go on meanwhile).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { postingsBuffer, readLengths, readTerm, termPostingsSql, vocabTablesSql } from './fts5-reads.js';

/** Each term's postings, or (no terms) every node's length. */
export interface ReadRequest {
  id: number;
  table: string;
  terms?: string[];
}

export type ReadReply =
  | { id: number; postings: { seqs: Int32Array; wtf: Float64Array }[] }
  | { id: number; lengths: { seqs: Int32Array; lens: Uint32Array } }
  | { id: number; error: string };

const db = new Database((workerData as { path: string }).path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map<string, Database.Statement>();

function statement(table: string): Database.Statement {
  let s = statements.get(table);
  if (!s) {
    for (const sql of vocabTablesSql(table)) db.exec(sql);
    statements.set(table, (s = db.prepare(termPostingsSql(table)).raw(true)));
  }
  return s;
}

parentPort!.on('message', ({ id, table, terms }: ReadRequest) => {
  try {
    if (!terms) {
      const lengths = readLengths(db, table);
      parentPort!.postMessage({ id, lengths } satisfies ReadReply, [lengths.seqs.buffer as ArrayBuffer, lengths.lens.buffer as ArrayBuffer]);
      return;
    }
    const stmt = statement(table);
    const postings = terms.map((term) => {
      const buf = postingsBuffer(256);
      const n = readTerm(stmt, term, buf);
      return { seqs: buf.seqs.slice(0, n), wtf: buf.wtf.slice(0, n) };
    });
    parentPort!.postMessage({ id, postings } satisfies ReadReply, postings.flatMap((p) => [p.seqs.buffer, p.wtf.buffer]));
  } catch (e) {
    statements.delete(table); // the table may have gone (and may come back): made again next time
    parentPort!.postMessage({ id, error: e instanceof Error ? e.message : String(e) } satisfies ReadReply);
  }
});
