// FTS5's vocabulary tables as the keyword module reads them on SQLite: the statements, and
// one term's postings iterated into typed buffers. Shared by the connection's reads
// (keyword-source.sqlite.ts) and the warm-up's reader thread (keyword-read-worker.ts).
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
