// What the keyword module reads of a tenant's FTS5 table on SQLite: every node's length
// (the docsize table), and one term's postings from its vocabulary tables, iterated into
// typed buffers. Shared by the connection's reads (keyword-source.sqlite.ts) and the reader
// thread's (keyword-read-worker.ts).
import type Database from 'better-sqlite3';
import { FTS_COLUMNS } from '../db/fts-tables.js';
import { FIELD_WEIGHTS } from '../search/keyword-score.js';

const COLUMNS = FTS_COLUMNS.split(', ');
/** A term instance's column weight, in SQL over an `instance` vocabulary table's `col`. */
export const WEIGHT = `CASE col ${COLUMNS.map((c, i) => `WHEN '${c}' THEN ${FIELD_WEIGHTS[i]}`).join(' ')} ELSE 1 END`;

/** The temp-schema vocabulary tables of FTS5 table `t` (per connection): its terms' rows and instances. */
export const vocabTablesSql = (t: string) => [
  `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t}_rows USING fts5vocab(main, ${t}, 'row')`,
  `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t}_inst USING fts5vocab(main, ${t}, 'instance')`,
];

/** The terms held by at least `?` nodes, most held first (a scan of the whole index: FTS5 counts each term's nodes). */
export const termsSql = (t: string) => `SELECT term, doc AS df FROM temp.${t}_rows WHERE doc >= ? ORDER BY doc DESC, term`;

/** One term's postings: each node holding it (ascending) and its column-weighted frequency there. */
export const termPostingsSql = (t: string) => `SELECT doc, sum(${WEIGHT}) FROM temp.${t}_inst WHERE term = ? GROUP BY doc ORDER BY doc`;

export interface PostingsBuffer {
  seqs: Int32Array;
  wtf: Float64Array;
}

export const postingsBuffer = (size = 1024): PostingsBuffer => ({ seqs: new Int32Array(size), wtf: new Float64Array(size) });

function grow<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/**
 * Reads a term's postings (statement: termPostingsSql, raw) into `buf`, grown as needed;
 * returns how many. Rows are iterated into typed buffers: a common term's 100k rows
 * collected as arrays are garbage enough to grow the process.
 */
export function readTerm(stmt: Database.Statement, term: string, buf: PostingsBuffer): number {
  let count = 0;
  for (const [doc, w] of stmt.iterate(term) as IterableIterator<[number, number]>) {
    if (count === buf.seqs.length) {
      buf.seqs = grow(buf.seqs, new Int32Array(count * 2));
      buf.wtf = grow(buf.wtf, new Float64Array(count * 2));
    }
    buf.seqs[count] = doc;
    buf.wtf[count++] = w;
  }
  return count;
}

/** SQLite's varint (FTS5 stores its averages and sizes with it): value and next offset. */
export function varint(b: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const c = b[at++];
    v = v * 128 + (c & 0x7f);
    if (!(c & 0x80)) return [v, at];
  }
  return [v * 256 + b[at++], at];
}

export function varintSum(b: Uint8Array, from = 0): number {
  let total = 0;
  for (let at = from; at < b.length; ) {
    const [v, next] = varint(b, at);
    total += v;
    at = next;
  }
  return total;
}

/** Every node's length in tokens in FTS5 table `t` (seqs ascending). */
export function readLengths(db: Database.Database, t: string): { seqs: Int32Array; lens: Uint32Array } {
  const n = db.prepare(`SELECT count(*) FROM ${t}_docsize`).pluck().get() as number;
  const seqs = new Int32Array(n);
  const lens = new Uint32Array(n);
  // Iterated, not collected: 100k rows as arrays of a number and a Buffer grow the heap for good.
  let i = 0;
  for (const [id, sz] of db.prepare(`SELECT id, sz FROM ${t}_docsize ORDER BY id`).raw(true).iterate() as IterableIterator<[number, Uint8Array]>) {
    if (i === n) break;
    seqs[i] = id;
    lens[i++] = varintSum(sz);
  }
  return { seqs: seqs.subarray(0, i), lens: lens.subarray(0, i) };
}
