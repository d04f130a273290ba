// One tenant's kept keyword index: postings per term (read from the engine through its
// KeywordSource), every node's length, and the nodes changed since (the change log taken in).
// Postings are never patched: each term remembers the log position it was read at, and a
// query reads it through a TermView that leaves out the nodes changed since and adds their
// current terms (`changed`), so what a query sees is the index as it is now. Pure.
import type { DocLengths } from './lengths.js';
import { type Postings, postingsBytes } from './postings.js';
import type { NodeTerms } from './source.js';

interface Kept {
  p: Postings;
  /** The engine's version of the term when read. */
  version: string;
  /** Change-log position the postings were read at: later changes are not in them. */
  from: number;
  bytes: number;
}

/** A changed node: its log position (the latest change) and its terms now (null: gone). */
interface Changed {
  pos: number;
  tf: Map<string, number> | null;
  bytes: number;
}

/** One term as a query reads it: the kept list, the seqs of it to leave out, the changed nodes holding it now. */
export interface TermView {
  p: Postings;
  /** Leave out seq s when skip[s - skipBase] (nodes changed since the read). */
  skip: Uint8Array | null;
  skipBase: number;
  /** Changed nodes holding the term now (seqs ascending) and its weighted frequency there. */
  extraSeqs: Int32Array;
  extraWtf: Float64Array;
  /** Nodes holding the term now. */
  df: number;
  /** Largest weighted frequency in the view (bounds its contribution). */
  maxWtf: number;
}

/** Each kept posting a view reads (the nodes changed since its read left out; not its changed nodes). */
export function forEachKept(v: TermView, fn: (seq: number, wtf: number) => void): void {
  const p = v.p;
  let seq = 0;
  for (let i = 0; i < p.length; i++) {
    seq = p.gaps ? seq + p.gaps[i] : p.seqs![i];
    if (v.skip) {
      const j = seq - v.skipBase;
      if (j >= 0 && j < v.skip.length && v.skip[j]) continue;
    }
    fn(seq, p.wtf[i]);
  }
}

export class TenantPostings {
  readonly terms = new Map<string, Kept>();
  readonly changed = new Map<number, Changed>();
  private termBytes = 0;
  private changedBytes = 0;
  /** When a query last used the tenant (ms since the epoch). */
  lastUsed = 0;
  /** Change-log position taken in up to. */
  position: number;
  /** Skip bitmaps per read position, until the next change. */
  private skips = new Map<number, { bits: Uint8Array; base: number; seqs: number[] } | null>();

  constructor(
    readonly lengths: DocLengths,
    position: number,
  ) {
    this.position = position;
  }

  /** Bytes held: postings, lengths and changed nodes. */
  get bytes(): number {
    return this.termBytes + this.lengths.bytes + this.changedBytes;
  }

  /** Terms whose postings are kept. */
  get size(): number {
    return this.terms.size;
  }

  has(term: string): boolean {
    return this.terms.has(term);
  }

  /** The version a term is held at (null: not held). */
  version(term: string): string | null {
    return this.terms.get(term)?.version ?? null;
  }

  /** Keeps a term's postings as read at log position `from`, at the engine's `version`. */
  put(term: string, p: Postings, from: number, version: string): void {
    this.drop(term);
    const bytes = postingsBytes(p) + term.length * 2 + version.length * 2;
    this.terms.set(term, { p, from, bytes, version });
    this.termBytes += bytes;
  }

  /** Forgets a term; the bytes freed. */
  drop(term: string): number {
    const k = this.terms.get(term);
    if (!k) return 0;
    this.terms.delete(term);
    this.termBytes -= k.bytes;
    return k.bytes;
  }

  /** Least recently put or used term first (Map order: use() moves a term to the end). */
  oldestTerm(): string | undefined {
    return this.terms.keys().next().value;
  }

  use(term: string): void {
    const k = this.terms.get(term);
    if (!k) return;
    this.terms.delete(term);
    this.terms.set(term, k);
  }

  /** Forgets every kept term and changed node (the engine could not tell what changed); lengths are read again with postings. */
  clear(): void {
    this.terms.clear();
    this.changed.clear();
    this.skips.clear();
    this.termBytes = 0;
    this.changedBytes = 0;
  }

  /** Takes in changed nodes as they are now (`now`: those still indexed), at log position `next`. */
  apply(seqs: number[], next: number, now: NodeTerms[]): void {
    const byS = new Map(now.map((d) => [d.seq, d]));
    for (const seq of seqs) {
      const d = byS.get(seq);
      const old = this.changed.get(seq);
      if (old) this.changedBytes -= old.bytes;
      let bytes = 16;
      if (d) for (const t of d.tf.keys()) bytes += 40 + t.length * 2;
      this.changed.set(seq, { pos: next, tf: d ? d.tf : null, bytes });
      this.changedBytes += bytes;
      this.lengths.set(seq, d ? d.len : 0);
    }
    this.position = next;
    if (seqs.length) this.skips.clear();
  }

  /** The term as a query reads it now; null when it is not kept. */
  view(term: string): TermView | null {
    const k = this.terms.get(term);
    if (!k) return null;
    const skip = this.skipsFrom(k.from);
    let removed = 0;
    if (skip) {
      // Changed nodes the kept list holds: counted out of df (a walk only when some changed).
      const p = k.p;
      let seq = 0;
      for (let i = 0; i < p.length; i++) {
        seq = p.gaps ? seq + p.gaps[i] : p.seqs![i];
        const j = seq - skip.base;
        if (j >= 0 && j < skip.bits.length && skip.bits[j]) removed++;
      }
    }
    const extra: [number, number][] = [];
    if (skip) {
      for (const seq of skip.seqs) {
        const f = this.changed.get(seq)!.tf?.get(term);
        if (f !== undefined) extra.push([seq, f]);
      }
      extra.sort((a, b) => a[0] - b[0]);
    }
    let maxWtf = k.p.maxWtf;
    for (const [, f] of extra) if (f > maxWtf) maxWtf = f;
    return {
      p: k.p,
      skip: skip?.bits ?? null,
      skipBase: skip?.base ?? 0,
      extraSeqs: Int32Array.from(extra, (e) => e[0]),
      extraWtf: Float64Array.from(extra, (e) => e[1]),
      df: k.p.length - removed + extra.length,
      maxWtf,
    };
  }

  /** The nodes changed at or after log position `from`, as a bitmap over their seqs (null: none). */
  private skipsFrom(from: number): { bits: Uint8Array; base: number; seqs: number[] } | null {
    if (this.changed.size === 0) return null;
    if (this.skips.has(from)) return this.skips.get(from)!;
    const seqs: number[] = [];
    // At the read's own position too: a node taken in just before a read is in its postings
    // already (laying it over again changes nothing), and on PostgreSQL a position (the oldest
    // running transaction) can stay put while later transactions commit.
    for (const [seq, c] of this.changed) if (c.pos >= from) seqs.push(seq);
    let out: { bits: Uint8Array; base: number; seqs: number[] } | null = null;
    if (seqs.length) {
      let lo = seqs[0];
      let hi = seqs[0];
      for (const s of seqs) {
        if (s < lo) lo = s;
        if (s > hi) hi = s;
      }
      const bits = new Uint8Array(hi - lo + 1);
      for (const s of seqs) bits[s - lo] = 1;
      out = { bits, base: lo, seqs };
    }
    this.skips.set(from, out);
    return out;
  }
}
