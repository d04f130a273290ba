// The keyword module's reads on SQLite (search/keyword/source.ts), straight from the
// tenant's FTS5 table: N and the total length from its averages record, each node's length
// from `docsize`, a term's postings from `fts5vocab` instance rows summed per node under
// FIELD_WEIGHTS, and the nodes written since from the in-process change log
// (keyword-changes.ts), re-tokenised by FTS5's own tokenizer (a scratch table in the temp
// schema) so their terms are exactly the ones FTS5 indexed. Each read waits for its turn on
// the connection and then runs synchronously on it (microseconds to a few ms; a term in most
// of 100k notes, a few hundred: the warm-up's reads go to a thread, keyword-read-thread.ts).
import type Database from 'better-sqlite3';
import { FTS_COLUMNS, FTS_OPTIONS } from '../db/fts-tables.js';
import type { SqliteStore } from '../db/store/sqlite-store.js';
import { indexedBody } from '../search/indexed-text.js';
import type { KeywordSource, NodeTerms, QueryRead, TermCount, TermRead } from '../search/keyword/source.js';
import { type PostingsBuffer, postingsBuffer, readLengths, readTerm, termPostingsSql, termsSql, varint, varintSum, vocabTablesSql, WEIGHT } from './fts5-reads.js';
import { changesSince, trimChanges, unwatchChanges, watchChanges } from './keyword-changes.js';
import { NOTES_JSON_SQLITE } from './highlights.repo.js';
import type { KeywordIndexRepo } from './keyword-index.repo.js';
import { KeywordReadThread } from './keyword-read-thread.js';

export class Fts5KeywordSource implements KeywordSource {
  private readonly db: Database.Database;
  private readonly stmts = new Map<string, Database.Statement>();
  private readonly tokens = new Map<string, string[]>();
  private readonly bufs: PostingsBuffer[] = [];
  /** Background reads (the warm-up's) on a connection of their own in another thread; none for a database in memory. */
  readonly thread: KeywordReadThread | null;
  /** Tenants with fewer nodes read their lengths on the connection (a few ms; the thread takes longer to start). Tests lower it. */
  threadMinRows = 20_000;

  constructor(
    private readonly store: SqliteStore,
    private readonly keywords: KeywordIndexRepo,
  ) {
    this.db = store.handle;
    this.thread = this.db.memory ? null : new KeywordReadThread(this.db.name);
    if (this.thread) store.onClose(() => this.thread!.close());
    // Made here, outside any transaction: one made inside would go with its rollback.
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.rhizome_keyword_scratch USING fts5(${FTS_COLUMNS}, ${FTS_OPTIONS.replace("content='', contentless_delete=1, ", '')})`);
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.rhizome_keyword_scratch_inst USING fts5vocab(temp, rhizome_keyword_scratch, 'instance')`);
  }

  private prepare(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  private readonly vocabs = new Set<string>();

  private vocab(t: string): void {
    if (this.vocabs.has(t)) return;
    this.vocabs.add(t);
    this.store.afterRollback(() => this.vocabs.delete(t)); // made inside a transaction: gone with its rollback
    for (const sql of vocabTablesSql(t)) this.db.exec(sql);
  }

  /** Every node's length: in the reader thread for a large tenant (a read of 100k rows), on the connection inside a transaction or if the thread cannot (as read()'s background postings). */
  async lengths(tenantId: string): Promise<{ seqs: Int32Array; lens: Uint32Array }> {
    await this.store.turn();
    const t = this.keywords.table(tenantId);
    if (!t) return { seqs: new Int32Array(0), lens: new Uint32Array(0) };
    const read = this.keywords.rows(tenantId) >= this.threadMinRows ? await this.inThread((th) => th.lengths(t)) : null;
    return read ?? readLengths(this.db, t);
  }

  /**
   * `read` in the reader thread, when there is one and the caller is outside a transaction
   * (the thread cannot see its writes); null: read on the connection instead, whose turn is
   * then taken again.
   */
  private async inThread<T>(read: (thread: KeywordReadThread) => Promise<T>): Promise<T | null> {
    if (!this.thread || this.store.inTransaction) return null;
    const got = await read(this.thread).catch(() => null);
    if (got === null) await this.store.turn();
    return got;
  }

  /** Only the warm-up asks (a scan of the whole index): in the reader thread, as read()'s background postings. */
  async terms(tenantId: string, minDf: number): Promise<TermCount[]> {
    await this.store.turn();
    const t = this.keywords.table(tenantId);
    if (!t) return [];
    const read = await this.inThread((th) => th.terms(t, minDf));
    if (read) return read;
    this.vocab(t);
    return this.prepare(termsSql(t)).all(minDf) as TermCount[];
  }

  /** FTS5 counts a term's nodes from its doclist (the `row` vocabulary), reading no instance rows. */
  async df(tenantId: string, terms: string[]): Promise<number[]> {
    await this.store.turn();
    const t = this.keywords.table(tenantId);
    if (!t) return terms.map(() => 0);
    this.vocab(t);
    const stmt = this.prepare(`SELECT doc FROM temp.${t}_rows WHERE term = ?`);
    return terms.map((term) => ((stmt.get(term) as { doc: number } | undefined)?.doc ?? 0));
  }

  /**
   * N and the total length from FTS5's averages record; each term not held read from its
   * instance rows (one version: the change log tells what changed). A background read
   * (nothing waits on it but the warm-up) reads the postings in the reader thread, on the
   * connection if the thread cannot. Its snapshot starts after this turn, when every
   * transaction open as the caller took its log position has ended: each change the log
   * holds before that position is committed (in the snapshot) or rolled back (logged
   * again after it), and each later one is laid over the postings. Not inside a
   * transaction: the thread cannot see its writes.
   */
  async read(tenantId: string, terms: string[], have: (string | null)[], o: { background?: boolean } = {}): Promise<QueryRead> {
    await this.store.turn();
    let t = this.keywords.table(tenantId);
    const wanted = terms.filter((_, i) => have[i] === null);
    const inThread = t && o.background && wanted.length ? await this.inThread((th) => th.read(t!, wanted)) : null;
    if (inThread) {
      await this.store.turn(); // the statistics below, on the connection
      t = this.keywords.table(tenantId);
    }
    const block = t ? (this.prepare(`SELECT block FROM ${t}_data WHERE id = 1`).pluck().get() as Buffer | undefined) : undefined;
    const versions = terms.map(() => '');
    if (!t || !block) return { n: 0, totalLen: 0, versions, postings: terms.map(() => null) };
    const [n, at] = varint(block, 0);
    const stats = { n, totalLen: varintSum(block, at), nodes: this.keywords.rows(tenantId), versions };
    if (inThread) {
      let j = 0;
      return { ...stats, postings: have.map((h) => (h === null ? inThread[j++] : null)) };
    }
    this.vocab(t);
    const inst = this.prepare(termPostingsSql(t)).raw(true);
    // One buffer pair per term of the read, reused from read to read (the answer is valid until the next read).
    const postings = terms.map((term, i): TermRead | null => {
      if (have[i] !== null) return null;
      const buf = (this.bufs[i] ??= postingsBuffer());
      const count = readTerm(inst, term, buf);
      return { seqs: buf.seqs.subarray(0, count), wtf: buf.wtf.subarray(0, count) };
    });
    return { ...stats, postings };
  }

  /** The change log logs a rolled-back write again: reads inside a transaction use what is kept. */
  isolated(): boolean {
    return false;
  }

  watch(tenantId: string): number {
    return watchChanges(this.db, tenantId);
  }

  unwatch(tenantId: string): void {
    unwatchChanges(this.db, tenantId);
  }

  changes(tenantId: string, from: number): { seqs: number[]; next: number } {
    trimChanges(this.db, tenantId, from);
    return changesSince(this.db, tenantId, from);
  }

  async nodes(tenantId: string, seqs: number[]): Promise<NodeTerms[]> {
    await this.store.turn();
    // The body as indexed: with its highlights' notes, in their order.
    const rows = this.prepare(
      `SELECT n.seq, n.title, n.summary, n.body_markdown, n.tags, ${NOTES_JSON_SQLITE} AS notes
       FROM json_each(?) j CROSS JOIN nodes n ON n.seq = j.value WHERE n.tenant_id = ?`,
    ).all(JSON.stringify(seqs), tenantId) as {
      seq: number;
      title: string;
      summary: string;
      body_markdown: string;
      tags: string;
      notes: string;
    }[];
    const put = this.prepare('INSERT INTO temp.rhizome_keyword_scratch (rowid, title, summary, body, tags) VALUES (?, ?, ?, ?, ?)');
    for (const r of rows) put.run(r.seq, r.title, r.summary, indexedBody(r.body_markdown, JSON.parse(r.notes) as string[]), (JSON.parse(r.tags) as string[]).join(' '));
    const out = new Map<number, NodeTerms>(rows.map((r) => [r.seq, { seq: r.seq, len: 0, tf: new Map() }]));
    for (const [doc, term, w] of this.prepare(`SELECT doc, term, ${WEIGHT} FROM temp.rhizome_keyword_scratch_inst`).raw(true).iterate() as IterableIterator<[number, string, number]>) {
      const d = out.get(doc)!;
      d.len++;
      d.tf.set(term, (d.tf.get(term) ?? 0) + w);
    }
    this.prepare('DELETE FROM temp.rhizome_keyword_scratch').run();
    return [...out.values()];
  }

  /** FTS5 re-tokenises the nodes as they are now (nodes()): the terms it indexed for them. */
  async termVectors(tenantId: string, seqs: number[]): Promise<NodeTerms[]> {
    return seqs.length ? await this.nodes(tenantId, seqs) : [];
  }

  /** The terms FTS5 indexes for each quoted phrase, in order: its own tokenizer's (the scratch table's), remembered for the process' life. */
  async indexedTerms(phrases: string[]): Promise<string[][]> {
    await this.store.turn();
    return phrases.map((p) => {
      let tokens = this.tokens.get(p);
      if (tokens) return tokens;
      this.prepare('INSERT INTO temp.rhizome_keyword_scratch (rowid, title) VALUES (0, ?)').run(p.slice(1, -1).replace(/""/g, '"'));
      tokens = this.prepare('SELECT term FROM temp.rhizome_keyword_scratch_inst ORDER BY offset').pluck().all() as string[];
      this.prepare('DELETE FROM temp.rhizome_keyword_scratch').run();
      if (this.tokens.size > 100_000) this.tokens.clear();
      this.tokens.set(p, tokens);
      return tokens;
    });
  }
}
