// Each tenant's terms held by enough of its notes, their postings kept in memory
// (search/kept-postings.ts), read from the tenant's FTS5 table in the background
// (kept-postings-read.ts, in the keyword worker when it can) and then patched, never
// invalidated, as the tenant writes: every node written after the read started
// (keyword-changes.ts) is left out of the kept lists and scored by FTS5 itself (`rowid >
// last` for new nodes, a rowid list for the few old ones), so a query's ranking stays
// FTS5's. Too many old nodes written since, and the kept lists step aside (the caller
// scores in FTS5) until the warmer reads them again.
import type { KeywordIndexRepo } from './keyword-index.repo.js';
import { changesSince, trimChanges, unwatchChanges, watchChanges } from './keyword-changes.js';
import type { PackedPostings, ScoreAccumulator } from '../search/kept-postings.js';
import { FIELD_WEIGHTS, fts5Idf } from '../search/keyword-score.js';
import { readKept, varint, type ReadOutcome } from './kept-postings-read.js';
import { KeptPostingsReader } from './kept-postings-reader.js';
import { syncStatementCache as statementCache, type SyncPrepare as Prepare } from './statement-cache.js';
import type { Db } from '../db/open.js';

/** Terms held by fewer nodes cost FTS5 under ~0.1 ms to score: not worth keeping. */
export const KEPT_TERM_FLOOR = 64;

/** Old nodes written since the read that FTS5 may re-score per query (~30 µs each) before the kept lists step aside. */
export const DIRTY_OLD_MAX = 256;
/** New nodes since the read, as a share of the kept ones, past which the lists are read again. */
export const DIRTY_NEW_SHARE = 0.05;
/**
 * From this many notes a tenant's terms are read in the keyword worker thread: below it the
 * main thread reads them in slices, the longest one term's rows (~80 ms for a term in all
 * of 100k notes, ~1 s at 1M). The worker's thread cost ~100 MB of RSS at 100k notes
 * (a server at rest: 465–483 MB against 369–375 MB reading on the main thread).
 */
export const WORKER_FROM_NOTES = 200_000;
/** Work per event-loop turn while reading (ms). */
const SLICE_MS = 8;

interface Kept {
  /** Largest seq when the read started: later seqs are new. */
  last: number;
  /** Smallest seq when the read started: docLen and skip are indexed by seq − base. */
  base: number;
  /** Change-log position when the read started. */
  from: number;
  docLen: Uint32Array;
  terms: Map<string, PackedPostings>;
  bytes: number;
  /** Change-log position consumed into `skip`/`old`. */
  consumed: number;
  skip: Uint8Array | null;
  old: number[];
  fresh: number;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class KeptPostingsRepo {
  private readonly kept = new Map<string, Kept>();
  private readonly building = new Set<string>();
  /** Tenants build() declined (fewer notes than the floor, or seqs spread too thin), at their write version then. */
  private readonly declined = new Map<string, number>();
  private readonly averaged = new Map<string, { version: number; n: number; avgdl: number }>();
  private readonly prepare: Prepare;
  /** Terms held by at least this many nodes are kept (tests lower it). */
  floor = KEPT_TERM_FLOOR;
  /** false: reads run on the main thread, in slices (tests compare both). */
  useWorker = true;
  /** Tenants from this many notes are read in the keyword worker (tests lower it). */
  workerFromNotes = WORKER_FROM_NOTES;
  /** Reads the keyword worker did (tests, the log). */
  workerReads = 0;
  private reader?: KeptPostingsReader;

  constructor(
    private readonly db: Db,
    private readonly keywords: KeywordIndexRepo,
  ) {
    this.prepare = statementCache(db);
  }

  /**
   * FTS5's N and average document length (its averages record), for bm25() exactly as FTS5
   * computes it; read again only after the tenant writes.
   */
  averages(tenantId: string): { n: number; avgdl: number } {
    const version = this.keywords.version(tenantId);
    const hit = this.averaged.get(tenantId);
    if (hit?.version === version) return hit;
    const t = this.keywords.table(tenantId);
    const block = t ? (this.prepare(`SELECT block FROM ${t}_data WHERE id = 1`).pluck().get() as Buffer | undefined) : undefined;
    let n = 0;
    let total = 0;
    if (block) {
      let at: number;
      [n, at] = varint(block, 0);
      while (at < block.length) {
        const [v, next] = varint(block, at);
        total += v;
        at = next;
      }
    }
    const out = { version, n, avgdl: n ? total / n : 0 };
    this.averaged.set(tenantId, out);
    return out;
  }

  /**
   * Reads the tenant's terms held by `floor` to `ceiling` nodes (exclusive) from FTS5 — in
   * the keyword worker thread when it can, else here, yielding between slices — and
   * replaces the kept lists when done. False when another read of the tenant is under way,
   * the tenant is not kept (fewer notes than the floor, seqs spread too thin) or `stop()`
   * said so.
   */
  async build(tenantId: string, ceiling: number, stop: () => boolean = () => false): Promise<boolean> {
    const t = this.keywords.table(tenantId);
    if (!t || this.building.has(tenantId)) return false;
    this.building.add(tenantId);
    try {
      // Every change from here on is dirty for the new lists, whichever snapshot they read.
      const version = this.keywords.version(tenantId);
      const notes = this.keywords.rows(tenantId);
      if (notes < this.floor) {
        this.declined.set(tenantId, version);
        return false;
      }
      const from = watchChanges(this.db, tenantId);
      let outcome: ReadOutcome | null = null;
      if (this.useWorker && notes >= this.workerFromNotes && KeptPostingsReader.usable(this.db.name, this.db.memory)) {
        this.reader ??= new KeptPostingsReader();
        outcome = await this.reader.read({ path: this.db.name, table: t, weights: [...FIELD_WEIGHTS], floor: this.floor, ceiling });
        if (outcome !== null) this.workerReads++;
      }
      if (outcome === null) {
        const steps = readKept(this.db, t, FIELD_WEIGHTS, this.floor, ceiling, SLICE_MS);
        for (;;) {
          const r = steps.next();
          if (r.done) {
            outcome = r.value;
            break;
          }
          if (stop()) return false;
          await turn();
        }
      }
      if (stop()) return false;
      if (outcome === 'declined') this.declined.set(tenantId, version);
      if (typeof outcome === 'string') return false;
      const { base, last, docLen, terms, bytes } = outcome;
      this.kept.set(tenantId, { last, base, from, docLen, terms, bytes, consumed: from, skip: null, old: [], fresh: 0 });
      trimChanges(this.db, tenantId, from);
      return true;
    } finally {
      this.building.delete(tenantId);
      // Nothing kept for the tenant: its writes need no log (the next build watches again).
      if (!this.kept.has(tenantId)) unwatchChanges(this.db, tenantId);
    }
  }

  /** Stops the keyword worker (the database is closing). */
  async close(): Promise<void> {
    await this.reader?.close();
  }

  /** Takes in the tenant's changes since the last look; false when the kept lists should step aside. */
  private sync(k: Kept, tenantId: string): boolean {
    const { seqs, next } = changesSince(this.db, tenantId, k.consumed);
    k.consumed = next;
    // The log is only this reader's, unless a read under way started from an earlier place.
    if (!this.building.has(tenantId)) trimChanges(this.db, tenantId, next);
    for (const seq of seqs) {
      if (seq > k.last) {
        k.fresh++;
        continue;
      }
      if (seq < k.base) {
        // Below every seq read (a reused rowid): in no kept list, FTS5 scores it.
        if (!k.old.includes(seq)) k.old.push(seq);
        continue;
      }
      k.skip ??= new Uint8Array(k.last - k.base + 1);
      if (!k.skip[seq - k.base]) {
        k.skip[seq - k.base] = 1;
        k.old.push(seq);
      }
    }
    return k.old.length <= DIRTY_OLD_MAX;
  }

  /**
   * Whether the tenant's kept lists are missing or worn enough by writes to read again:
   * old nodes written since near the most FTS5 re-scores, or new ones past `share` of the
   * kept (FTS5 scores those: the longer the tail, the more of each query it costs). A
   * tenant build() declined is not stale again until it writes.
   */
  stale(tenantId: string, share = DIRTY_NEW_SHARE): boolean {
    const k = this.kept.get(tenantId);
    if (!k) return this.declined.get(tenantId) !== this.keywords.version(tenantId);
    this.sync(k, tenantId);
    return k.old.length > DIRTY_OLD_MAX / 2 || k.fresh > Math.max(256, share * k.docLen.length);
  }

  /** Whether a term (as FTS5 indexes it) is kept for the tenant and the lists are usable now. */
  usable(tenantId: string): ((stem: string) => boolean) | null {
    const k = this.kept.get(tenantId);
    if (!k || !this.sync(k, tenantId)) return null;
    return (stem) => k.terms.has(stem);
  }

  /**
   * Adds to `acc` each node's contribution of these terms (quoted phrases whose FTS5 term,
   * `stem`, is kept), under the tenant's N and average length and each phrase's df; nodes
   * written since the read come from FTS5 with the same phrases.
   */
  score(tenantId: string, terms: { phrase: string; stem: string; df: number }[], acc: ScoreAccumulator): void {
    const k = this.kept.get(tenantId)!;
    const t = this.keywords.table(tenantId)!;
    const { n, avgdl } = this.averages(tenantId);
    for (const term of terms) acc.addPostings(k.terms.get(term.stem)!, k.docLen, k.base, fts5Idf(n, term.df), avgdl, k.skip);
    const match = terms.map((term) => term.phrase).join(' OR ');
    const bm25 = `-bm25(${t}, ${FIELD_WEIGHTS.join(', ')})`;
    if (k.fresh > 0) {
      for (const [seq, s] of this.prepare(`SELECT rowid, ${bm25} FROM ${t} WHERE ${t} MATCH ? AND rowid > ?`).raw(true).iterate(match, k.last) as IterableIterator<[number, number]>) acc.add(seq, s);
    }
    if (k.old.length) {
      for (const [seq, s] of this.prepare(`SELECT rowid, ${bm25} FROM ${t} WHERE ${t} MATCH ? AND rowid IN (SELECT value FROM json_each(?))`).raw(true).iterate(match, JSON.stringify(k.old)) as IterableIterator<[number, number]>) acc.add(seq, s);
    }
  }

  /** Memory the tenant's kept lists hold, in bytes (0: none). */
  heldBytes(tenantId?: string): number {
    if (tenantId !== undefined) return this.kept.get(tenantId)?.bytes ?? 0;
    let b = 0;
    for (const k of this.kept.values()) b += k.bytes;
    return b;
  }

  /** Notes the tenant's kept lists span (0: none kept). */
  keptNotes(tenantId: string): number {
    return this.kept.get(tenantId)?.docLen.length ?? 0;
  }

  /** Terms kept for the tenant. */
  termCount(tenantId: string): number {
    return this.kept.get(tenantId)?.terms.size ?? 0;
  }
}
