// The kept BM25 contributions of common terms (search/term-impacts.ts), per tenant, valid
// until the tenant's next write. Keyed by the term as FTS5 indexes it (its porter stem,
// read from FTS5's own tokenizer through a scratch table in the connection's temp
// schema), so "notes", "noting" and a pre-warmed "note" share one entry.
import type Database from 'better-sqlite3';
import { FTS_OPTIONS } from '../db/fts-tables.js';
import type { Db } from '../db/open.js';
import { impactBytes, termImpacts, termImpactsOf, type TermImpacts } from '../search/term-impacts.js';
import { quoteTerm } from '../search/text.js';
import type { KeywordIndexRepo } from './keyword-index.repo.js';

/** Memory kept for common terms' contributions (16 B a posting: ~1.6 MB for a term in every one of 100k notes). */
export const IMPACT_CACHE_BYTES = 48 * 1024 * 1024;
/** ...or, for a larger tenant, this much per note of it: ten terms held by every note. */
export const IMPACT_BYTES_PER_NOTE = 160;

/** The cache's budget when the largest tenant seen has `notes` notes. */
export const impactBudget = (notes: number) => Math.max(IMPACT_CACHE_BYTES, notes * IMPACT_BYTES_PER_NOTE);

interface Entry {
  version: number;
  /** The quoted phrase the contributions were scored for. */
  phrase: string;
  impacts: TermImpacts;
}

export class TermImpactsRepo {
  private readonly cache = new Map<string, Entry>();
  private bytes = 0;
  private largest = 0;
  private readonly stems = new Map<string, string | null>();
  private stemStmts?: { put: Database.Statement; read: Database.Statement; clear: Database.Statement };

  constructor(
    private readonly db: Db,
    private readonly keywords: KeywordIndexRepo,
  ) {}

  /**
   * The single token FTS5 indexes for a quoted term (null when it makes no single token:
   * such a term is never kept). Deterministic, so remembered for the process' life.
   */
  stemOf(phrase: string): string | null {
    let s = this.stems.get(phrase);
    if (s !== undefined) return s;
    if (!this.stemStmts) {
      this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.rhizome_stemmer USING fts5(x, ${FTS_OPTIONS.replace("content='', contentless_delete=1, ", '')})`);
      this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.rhizome_stemmer_terms USING fts5vocab(temp, rhizome_stemmer, 'instance')`);
      this.stemStmts = {
        put: this.db.prepare('INSERT INTO temp.rhizome_stemmer (rowid, x) VALUES (1, ?)'),
        read: this.db.prepare('SELECT term FROM temp.rhizome_stemmer_terms').pluck(),
        clear: this.db.prepare('DELETE FROM temp.rhizome_stemmer'),
      };
    }
    const text = phrase.slice(1, -1).replace(/""/g, '"');
    this.stemStmts.put.run(text);
    const tokens = this.stemStmts.read.all() as string[];
    this.stemStmts.clear.run();
    s = tokens.length === 1 ? tokens[0] : null;
    if (this.stems.size > 100_000) this.stems.clear();
    this.stems.set(phrase, s);
    return s;
  }

  /**
   * The term's contribution in each node that holds it, at the tenant's current version
   * (computed now when the kept one is missing or stale); least recently used entries go
   * beyond budget().
   */
  get(tenantId: string, phrase: string): TermImpacts {
    const stem = this.stemOf(phrase);
    if (stem === null) return termImpacts(this.keywords.scoredMatches(tenantId, phrase));
    const key = `${tenantId}\u0000${stem}`;
    this.largest = Math.max(this.largest, this.keywords.rows(tenantId));
    const version = this.keywords.version(tenantId);
    const hit = this.cache.get(key);
    if (hit && hit.version === version) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.impacts;
    }
    const { seqs, scores } = this.keywords.scoredColumns(tenantId, phrase);
    return this.put(key, { version, phrase, impacts: termImpactsOf(seqs, scores) });
  }

  private put(key: string, e: Entry): TermImpacts {
    const old = this.cache.get(key);
    if (old) {
      this.cache.delete(key);
      this.bytes -= impactBytes(old.impacts);
    }
    this.cache.set(key, e);
    this.bytes += impactBytes(e.impacts);
    for (const [k, v] of this.cache) {
      if (this.bytes <= this.budget() || k === key) break;
      this.cache.delete(k);
      this.bytes -= impactBytes(v.impacts);
    }
    return e.impacts;
  }

  /** Kept terms of the tenant scored before its last write (the background refresh redoes these). */
  stale(tenantId: string): string[] {
    const version = this.keywords.version(tenantId);
    const out: string[] = [];
    for (const [k, e] of this.cache) if (k.startsWith(`${tenantId}\u0000`) && e.version !== version) out.push(e.phrase);
    return out;
  }

  /**
   * The tenant's indexed terms held by at least `minDocs` nodes, most common first, as
   * quoted phrases that FTS5 reads back as the same term (fts5vocab reads the whole index:
   * ~0.5 s at 100k notes, done once at start-up in the background).
   */
  commonTerms(tenantId: string, minDocs: number, max: number): string[] {
    const t = this.keywords.table(tenantId);
    if (!t) return [];
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t}_rows USING fts5vocab(main, ${t}, 'row')`);
    const terms = this.db.prepare(`SELECT term FROM temp.${t}_rows WHERE doc >= ? ORDER BY doc DESC LIMIT ?`).pluck().all(minDocs, max) as string[];
    return terms.map(quoteTerm).filter((p) => this.stemOf(p) === p.slice(1, -1));
  }

  /** Bytes the cache may hold (grows with the largest tenant it has served). */
  budget(): number {
    return impactBudget(this.largest);
  }

  /** Memory held by kept contributions, in bytes. */
  heldBytes(): number {
    return this.bytes;
  }
}
