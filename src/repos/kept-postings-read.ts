// Reading a tenant's kept postings (kept-postings.repo.ts) from its FTS5 table: the nodes'
// lengths from `docsize`, then each term held by `floor` to `ceiling` nodes from
// `fts5vocab` instance rows summed per node. Written as steps (a generator that pauses
// every `sliceMs`) so the main thread can yield between slices, while the keyword worker
// (kept-postings-worker.ts) runs the same steps straight through in one read transaction
// of its own connection. Rows are iterated, never collected: the read's garbage stays in
// V8's young generation.
import type Database from 'better-sqlite3';
import { FTS_COLUMNS } from '../db/fts-tables.js';
import { packPostings, packedBytes, type PackedPostings } from '../search/kept-postings.js';

/** The tenant's kept postings as read. */
export interface KeptRead {
  /** Smallest and largest seq when the read started. */
  base: number;
  last: number;
  /** Each node's length in tokens, indexed by seq − base. */
  docLen: Uint32Array;
  terms: Map<string, PackedPostings>;
  bytes: number;
}

/** Why a read kept nothing: no nodes, or seqs spread too thin among other tenants'. */
export type ReadOutcome = KeptRead | 'empty' | 'declined';

/**
 * Lengths are kept per seq from the tenant's first to its last (seqs are shared by every
 * tenant): a tenant whose seqs are spread thinner than this among the others' is not kept.
 */
const MIN_SEQ_DENSITY = 0.25;
const COLUMNS = FTS_COLUMNS.split(', ');

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

function grow<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

export function* readKept(db: Database.Database, t: string, weights: readonly number[], floor: number, ceiling: number, sliceMs: number): Generator<void, ReadOutcome> {
  const span = db.prepare(`SELECT min(id) AS lo, max(id) AS hi, count(*) AS n FROM ${t}_docsize`).get() as { lo: number | null; hi: number | null; n: number };
  if (span.lo === null || span.hi === null) return 'empty';
  const base = span.lo;
  const last = span.hi;
  if ((last - base + 1) * MIN_SEQ_DENSITY > span.n + 1024) return 'declined';
  const docLen = new Uint32Array(last - base + 1);
  let after = base - 1;
  const sizes = db.prepare(`SELECT id, sz FROM ${t}_docsize WHERE id > ? AND id <= ? ORDER BY id LIMIT 20000`).raw(true);
  for (;;) {
    let read = 0;
    for (const [id, sz] of sizes.iterate(after, last) as IterableIterator<[number, Uint8Array]>) {
      let d = 0;
      for (let at = 0; at < sz.length; ) {
        const [v, next] = varint(sz, at);
        d += v;
        at = next;
      }
      docLen[id - base] = d;
      after = id;
      read++;
    }
    if (read === 0) break;
    yield;
  }
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t}_rows USING fts5vocab(main, ${t}, 'row')`);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t}_inst USING fts5vocab(main, ${t}, 'instance')`);
  const weight = `CASE col ${COLUMNS.map((c, i) => `WHEN '${c}' THEN ${weights[i]}`).join(' ')} ELSE 1 END`;
  // 128 terms a step: fts5vocab walks each term's doclist to count it (the cost of a
  // step grows faster than its size: 2,000 terms ~0.2–0.8 s at 1M notes, 200 ~10–40 ms).
  const vocab = db.prepare(`SELECT term, doc FROM temp.${t}_rows WHERE term > ? ORDER BY term LIMIT 128`).raw(true);
  const inst = db.prepare(`SELECT doc, sum(${weight}) FROM temp.${t}_inst WHERE term = ? AND doc <= ? GROUP BY doc ORDER BY doc`).raw(true);
  const terms = new Map<string, PackedPostings>();
  let seqBuf = new Int32Array(4096);
  let wBuf = new Float64Array(4096);
  let bytes = docLen.byteLength;
  let cursor = '';
  let sliceStart = performance.now();
  for (;;) {
    const rows = vocab.all(cursor) as [string, number][];
    if (rows.length === 0) break;
    cursor = rows[rows.length - 1][0];
    for (const [term, df] of rows) {
      if (df < floor || df >= ceiling) continue;
      let count = 0;
      for (const [doc, w] of inst.iterate(term, last) as IterableIterator<[number, number]>) {
        if (count === seqBuf.length) {
          seqBuf = grow(seqBuf, new Int32Array(count * 2));
          wBuf = grow(wBuf, new Float64Array(count * 2));
        }
        seqBuf[count] = doc;
        wBuf[count++] = w;
      }
      const p = packPostings(seqBuf.subarray(0, count), wBuf.subarray(0, count));
      terms.set(term, p);
      bytes += packedBytes(p);
      if (performance.now() - sliceStart > sliceMs) {
        yield;
        sliceStart = performance.now();
      }
    }
    yield;
    sliceStart = performance.now();
  }
  return { base, last, docLen, terms, bytes };
}

/** Every buffer a read holds (to transfer it between threads rather than copy it). */
export function readBuffers(r: KeptRead): ArrayBuffer[] {
  const out: ArrayBuffer[] = [r.docLen.buffer as ArrayBuffer];
  for (const p of r.terms.values()) {
    if (p.gaps) out.push(p.gaps.buffer as ArrayBuffer);
    if (p.seqs) out.push(p.seqs.buffer as ArrayBuffer);
    out.push(p.wtf.buffer as ArrayBuffer);
  }
  return out;
}
