// What the keyword module needs of an engine: the one interface a repository implements for
// keyword ranking (repos/keyword-source.sqlite.ts over FTS5's own tables,
// repos/pg/keyword-source.pg.ts over the term tables). Reads only: postings, lengths and
// statistics, and which nodes changed. Terms are the engine's indexed form (FTS5's porter
// stem; PostgreSQL's lexeme, made to match it).

/** One term's postings as read: seqs ascending, the term's column-weighted frequency in each (and each node's length, when the engine keeps it with the postings). */
export interface TermRead {
  seqs: ArrayLike<number>;
  wtf: ArrayLike<number>;
  lens?: ArrayLike<number>;
}

/** One read for a query: the tenant's statistics, each term's version, and the postings of the terms not held at that version. */
export interface QueryRead {
  /** N and the total length BM25 is computed with (FTS5's averages record, which a delete from a contentless table does not decrement). */
  n: number;
  totalLen: number;
  /** The tenant's nodes, when N above may differ (the absolute score's normalisation counts these). */
  nodes?: number;
  /** null: no node holds the term. */
  versions: (string | null)[];
  /** Postings of the terms read (not held, or held at another version); null: not read. */
  postings: (TermRead | null)[];
  /** Everything held is to be forgotten before these postings are kept (the engine could not tell what changed since the last read). */
  reset?: boolean;
  /** Nodes changed since the position asked, as they are now (absent `tf`: no longer indexed), and the position after them: an engine whose change log is in the database hands them with the read. */
  changed?: { next: number; nodes: { seq: number; len: number | null; tf: Map<string, number> | null }[] };
}

/** A node as it is now (after a change): its length in tokens and weighted frequency per term; null: gone. */
export interface NodeTerms {
  seq: number;
  len: number;
  tf: Map<string, number>;
}

// What changed is a list of nodes changed since a position in a change log: FTS5's is the
// log this process keeps as it writes (changes()); PostgreSQL's is a table every process
// writes, read with the postings (read()'s `changed`). Every term has one version.
/** A term and the number of the tenant's nodes holding it. */
export interface TermCount {
  term: string;
  df: number;
}

export interface KeywordSource {
  /** Every indexed node's length (seqs ascending); empty when the engine hands lengths with the postings. */
  lengths(tenantId: string): Promise<{ seqs: ArrayLike<number>; lens: ArrayLike<number> }>;
  /** The tenant's terms held by at least `minDf` nodes (those worth reading ahead) with how many hold each, most held first. */
  terms(tenantId: string, minDf: number): Promise<TermCount[]>;
  /** How many of the tenant's nodes hold each term, from the engine's own statistics (no postings read; for choosing terms, not for ranking). */
  df(tenantId: string, terms: string[]): Promise<number[]>;
  /**
   * Statistics and versions now, and the postings of each term whose held version (`have`,
   * null: none) is not current (valid until the next read). `background`: a read ahead no
   * query waits on (the warm-up), which the engine may do off the event loop.
   */
  read(tenantId: string, terms: string[], have: (string | null)[], o?: { background?: boolean; position?: number }): Promise<QueryRead>;
  /** Whether reads now must not use or change what is kept (inside a transaction whose writes others must not see). */
  isolated(): boolean;
  /** Starts recording the tenant's changed nodes; the change log's position now. */
  watch(tenantId: string): number;
  /** Stops recording (nothing is kept for the tenant). */
  unwatch(tenantId: string): void;
  /** Seqs changed from log position `from`, and the position after them; the caller is done with what precedes `from`. */
  changes(tenantId: string, from: number): { seqs: number[]; next: number };
  /** These nodes as they are now (absent from the answer: no longer indexed). */
  nodes(tenantId: string, seqs: number[]): Promise<NodeTerms[]>;
  /** These nodes' terms and lengths as indexed now (pseudo-relevance feedback reads its feedback nodes; absent: not indexed). */
  termVectors(tenantId: string, seqs: number[]): Promise<NodeTerms[]>;
  /** The terms the engine indexes for each of a query's quoted phrases, in order (most make one; none or several are possible). */
  indexedTerms(phrases: string[]): Promise<string[][]>;
}
