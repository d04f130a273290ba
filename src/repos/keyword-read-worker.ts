// The keyword module's long reads on SQLite, in a thread of their own (keyword-read-thread.ts
// starts it): its own connection to the database file reads a large tenant's node lengths,
// and the warm-up's terms (FTS5 counts every term's nodes: the whole index) and postings (a
// common term: FTS5 sorts its instances by node), so none holds the server's event loop. Reads only; each is read at the
// snapshot its statement starts with (WAL: writers go on meanwhile).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { postingsBuffer, readLengths, readTerm, termPostingsSql, termsSql, vocabTablesSql } from './fts5-reads.js';

/** Every node's length, the terms held by at least `minDf` nodes, or each term's postings. */
export type ReadRequest = { id: number; table: string } & ({ op: 'lengths' } | { op: 'terms'; minDf: number } | { op: 'postings'; terms: string[] });

export type ReadReply =
  | { id: number; lengths: { seqs: Int32Array; lens: Uint32Array } }
  | { id: number; terms: string[] }
  | { id: number; postings: { seqs: Int32Array; wtf: Float64Array }[] }
  | { id: number; error: string };

const db = new Database((workerData as { path: string }).path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const made = new Set<string>();
const statements = new Map<string, Database.Statement>();

function statement(sql: string): Database.Statement {
  let s = statements.get(sql);
  if (!s) statements.set(sql, (s = db.prepare(sql).raw(true)));
  return s;
}

function read(r: ReadRequest): ReadReply {
  if (r.op === 'lengths') return { id: r.id, lengths: readLengths(db, r.table) };
  if (!made.has(r.table)) {
    for (const sql of vocabTablesSql(r.table)) db.exec(sql);
    made.add(r.table);
  }
  if (r.op === 'terms') return { id: r.id, terms: statement(termsSql(r.table)).pluck().all(r.minDf) as string[] };
  const stmt = statement(termPostingsSql(r.table));
  return {
    id: r.id,
    postings: r.terms.map((term) => {
      const buf = postingsBuffer(256);
      const n = readTerm(stmt, term, buf);
      return { seqs: buf.seqs.slice(0, n), wtf: buf.wtf.slice(0, n) };
    }),
  };
}

parentPort!.on('message', (r: ReadRequest) => {
  try {
    const reply = read(r);
    const arrays = 'lengths' in reply ? [reply.lengths.seqs, reply.lengths.lens] : 'postings' in reply ? reply.postings.flatMap((p) => [p.seqs, p.wtf]) : [];
    parentPort!.postMessage(reply, arrays.map((a) => a.buffer as ArrayBuffer));
  } catch (e) {
    made.delete(r.table); // the table may have gone (and may come back): its vocabulary tables made again next time
    for (const sql of [termsSql(r.table), termPostingsSql(r.table)]) statements.delete(sql);
    parentPort!.postMessage({ id: r.id, error: e instanceof Error ? e.message : String(e) } satisfies ReadReply);
  }
});
