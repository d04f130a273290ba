// BM25 contributions of one term from its postings, computed in JavaScript with exactly the
// operations the PostgreSQL ranking statement performs (repos/pg/keyword-index.pg.ts): so a
// page ranked from kept postings (repos/pg/term-postings.pg.ts) is the page the statement
// ranks, the same scores term by term (a node's sum may differ in its last bit: the order of
// addition differs). Pure functions.
import { BM25_B, BM25_K1 } from '../keyword-score.js';
import { termImpactsOf, type TermImpacts } from '../term-impacts.js';

/** One term's postings in one tenant: the nodes holding it, ascending, with its weighted frequency and each node's length. */
export interface TermPostings {
  seqs: Int32Array;
  tf: Float64Array;
  len: Int32Array;
}

/** The statement's idf: ln((N − df + 0.5) / (df + 0.5)), floored at 1e-6 (FTS5's floor). */
export function statementIdf(n: number, df: number): number {
  return Math.max(Math.log((n - df + 0.5) / (df + 0.5)), 1e-6);
}

/** The statement's average length: total_len / max(N, 1). */
export const averageLength = (n: number, totalLen: number) => totalLen / Math.max(n, 1);

/** The term's contribution in each node holding it (in the postings' order), under the tenant's N, total length and the term's df. */
export function scoresOf(p: TermPostings, n: number, totalLen: number, df: number): Float64Array {
  const idf = statementIdf(n, df);
  const avgdl = averageLength(n, totalLen);
  const scores = new Float64Array(p.seqs.length);
  for (let i = 0; i < scores.length; i++) {
    const tf = p.tf[i];
    scores[i] = (idf * (tf * (BM25_K1 + 1))) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * p.len[i]) / avgdl));
  }
  return scores;
}

/** The same as a list walkable best first (term-impacts.ts). */
export function contributions(p: TermPostings, n: number, totalLen: number, df: number): TermImpacts {
  return termImpactsOf(p.seqs, scoresOf(p, n, totalLen, df));
}

/** Bytes a term's postings hold. */
export const postingsBytes = (p: TermPostings) => p.seqs.byteLength + p.tf.byteLength + p.len.byteLength;
