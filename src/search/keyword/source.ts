// What the keyword module needs of an engine: the one interface a repository implements for
// keyword ranking (repos/keyword-source.sqlite.ts over FTS5's own tables,
// repos/pg/keyword-source.pg.ts over the term tables). Reads only: postings, lengths and
// statistics, and which nodes changed. Terms are the engine's indexed form (FTS5's porter
// stem; PostgreSQL's lexeme, made to match it).

/** One term's postings as read: seqs ascending, the term's column-weighted frequency in each. */
export interface TermRead {
  seqs: ArrayLike<number>;
  wtf: ArrayLike<number>;
}

/** A node as it is now (after a change): its length in tokens and weighted frequency per term; null: gone. */
export interface NodeTerms {
  seq: number;
  len: number;
  tf: Map<string, number>;
}

export interface KeywordSource {
  /** The tenant's N (nodes indexed) and total length in tokens, now. */
  stats(tenantId: string): Promise<{ n: number; totalLen: number }>;
  /** Every indexed node's length (seqs ascending). */
  lengths(tenantId: string): Promise<{ seqs: ArrayLike<number>; lens: ArrayLike<number> }>;
  /** The tenant's terms held by at least `minDf` nodes (those worth reading ahead). */
  terms(tenantId: string, minDf: number): Promise<string[]>;
  /** Each term's postings, now. */
  postings(tenantId: string, terms: string[]): Promise<TermRead[]>;
  /** Starts recording the tenant's changed nodes; the change log's position now. */
  watch(tenantId: string): number;
  /** Stops recording (nothing is kept for the tenant). */
  unwatch(tenantId: string): void;
  /** Seqs changed from log position `from`, and the position after them; the caller is done with what precedes `from`. */
  changes(tenantId: string, from: number): { seqs: number[]; next: number };
  /** These nodes as they are now (absent from the answer: no longer indexed). */
  nodes(tenantId: string, seqs: number[]): Promise<NodeTerms[]>;
}
