// The keyword warm-up's reads on SQLite, in a thread of their own (keyword-read-thread.ts
// starts it): its own connection to the database file reads terms' postings from FTS5's
// vocabulary tables, so a common term's read (a few hundred ms at 100k notes: FTS5 sorts
// its instances by node) never holds the server's event loop. Reads only; each term is
// read at the snapshot its statement starts with (WAL: writers go on meanwhile).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { postingsBuffer, readTerm, termPostingsSql, vocabTablesSql } from './fts5-vocab.js';

export interface ReadRequest {
  id: number;
  table: string;
  terms: string[];
}

export type ReadReply = { id: number; postings: { seqs: Int32Array; wtf: Float64Array }[] } | { id: number; error: string };

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
