// The keyword module's long reads on SQLite, in a thread of their own (keyword-read-thread.ts
// starts it): its own connection to the database file reads a large tenant's node lengths,
// and the warm-up's terms (FTS5 counts every term's nodes: the whole index) and postings (a
// common term: FTS5 sorts its instances by node), so none holds the server's event loop.
// Reads only; each is read at the snapshot its statement starts with (WAL: writers go on).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { TermCount } from '../search/keyword/source.js';
import { postingsBuffer, readLengths, readTerm, termPostingsSql, termsSql, vocabTablesSql } from './fts5-reads.js';

/** Every node's length, the terms held by at least `minDf` nodes, or each term's postings. */
export type ReadRequest = { id: number; table: string } & ({ op: 'lengths' } | { op: 'terms'; minDf: number } | { op: 'postings'; terms: string[] });

export type ReadReply =
  | { id: number; lengths: { seqs: Int32Array; lens: Uint32Array } }
  | { id: number; terms: TermCount[] }
  | { id: number; postings: { seqs: Int32Array; wtf: Float64Array; spans: [number, number][] } }
  | { id: number; error: string };

const db = new Database((workerData as { path: string }).path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
// SQLite's own default page cache (2 MB), not better-sqlite3's 16 MB: the thread's reads go
// through the index once, so a larger cache only fills, and its pages stay in the thread's
// malloc arena after the thread ends. A server on 100k notes after its warm-up: 366-377 MB
// anonymous with 16 MB, 327-340 with 2 MB, 344-350 before the thread (docs/storage-contract.md).
db.pragma('cache_size = -2000');
const made = new Set<string>();
/** Rows are read into this pair, grown as needed... */
const buf = postingsBuffer();
/**
 * ...and a read's terms laid end to end in this shared pair, which the main thread reads in
 * place: nothing is allocated per read on either side (a copy per read, at 100k notes, left
 * the server ~80 MB larger after the warm-up). The main thread sends the next read only once
 * it has taken what the last one left here (keyword-read-thread.ts).
 */
let shared = { seqs: new Int32Array(new SharedArrayBuffer(4 << 16)), wtf: new Float64Array(new SharedArrayBuffer(8 << 16)) };

function room(size: number): void {
  if (size <= shared.seqs.length) return;
  let cap = shared.seqs.length;
  while (cap < size) cap *= 2;
  const next = { seqs: new Int32Array(new SharedArrayBuffer(4 * cap)), wtf: new Float64Array(new SharedArrayBuffer(8 * cap)) };
  next.seqs.set(shared.seqs);
  next.wtf.set(shared.wtf);
  shared = next;
}
const statements = new Map<string, Database.Statement>();

function statement(sql: string): Database.Statement {
  let s = statements.get(sql);
  if (!s) statements.set(sql, (s = db.prepare(sql)));
  return s;
}

function read(r: ReadRequest): ReadReply {
  if (r.op === 'lengths') return { id: r.id, lengths: readLengths(db, r.table) };
  if (!made.has(r.table)) {
    for (const sql of vocabTablesSql(r.table)) db.exec(sql);
    made.add(r.table);
  }
  if (r.op === 'terms') return { id: r.id, terms: statement(termsSql(r.table)).all(r.minDf) as TermCount[] };
  const stmt = statement(termPostingsSql(r.table)).raw(true); // readTerm takes rows as arrays
  const spans: [number, number][] = [];
  let at = 0;
  for (const term of r.terms) {
    const n = readTerm(stmt, term, buf);
    room(at + n);
    shared.seqs.set(buf.seqs.subarray(0, n), at);
    shared.wtf.set(buf.wtf.subarray(0, n), at);
    spans.push([at, n]);
    at += n;
  }
  return { id: r.id, postings: { ...shared, spans } };
}

parentPort!.on('message', (r: ReadRequest) => {
  try {
    const reply = read(r);
    parentPort!.postMessage(reply, 'lengths' in reply ? [reply.lengths.seqs.buffer as ArrayBuffer, reply.lengths.lens.buffer as ArrayBuffer] : []);
  } catch (e) {
    made.delete(r.table); // the table may have gone (and may come back): its vocabulary tables made again next time
    for (const sql of [termsSql(r.table), termPostingsSql(r.table)]) statements.delete(sql);
    parentPort!.postMessage({ id: r.id, error: e instanceof Error ? e.message : String(e) } satisfies ReadReply);
  }
});
