// Graph health reads: the trigger-maintained counters of tenant_stats, and stale nodes
// counted over the (tenant_id, status, updated_at) index — two range counts, no table scan.
import type { Database } from '../db/store/contract.js';
import { compile, type Query, sql } from '../db/store/sql.js';

export interface TenantCounters {
  total_nodes: number;
  validated_nodes: number;
  total_captures: number;
  pending_captures: number;
  total_links: number;
}

// The values bound are the tenant and the window's start; the text forms below put named
// placeholders (code-built text, never input) in their place instead.
type Arg = string | Query;

// status is CHECK-ed to raw/validated/dismissed, so "not validated" is these two ranges.
const openNodes = (op: '<' | '>=', t: Arg, before: Arg) => sql`(SELECT count(*) FROM nodes WHERE tenant_id = ${t} AND status = 'raw' AND updated_at ${sql.raw(op)} ${before})
     + (SELECT count(*) FROM nodes WHERE tenant_id = ${t} AND status = 'dismissed' AND updated_at ${sql.raw(op)} ${before})`;
const directStale = (t: Arg, before: Arg) => sql`SELECT ${openNodes('<', t, before)}`;

// The tenant's counters (tenant_stats, kept by triggers) with its stale count, in one
// statement (one snapshot on either engine, no transaction). Two forms of the count: the
// direct one, and from the other side — open nodes minus those updated since `before`. In a
// notebook older than the window most open nodes are stale and the recent range is the
// shorter one (100k synthetic nodes over a year: 17k index entries instead of 52k).
const COUNTERS = sql.raw('s.total_nodes, s.validated_nodes, s.total_captures, s.pending_captures, s.total_links');
type CountersRow = TenantCounters & { stale: number };
const withStaleOldSide = (t: Arg, before: Arg) => sql<CountersRow>`SELECT ${COUNTERS}, ${openNodes('<', t, before)} AS stale
   FROM tenant_stats s WHERE s.tenant_id = ${t}`;
const withStaleRecentSide = (t: Arg, before: Arg) => sql<CountersRow>`SELECT ${COUNTERS},
     s.total_nodes - s.validated_nodes - (${openNodes('>=', t, before)}) AS stale
   FROM tenant_stats s WHERE s.tenant_id = ${t}`;

/** SQLite's text of the statements, with named parameters @t and @before (query plans and direct counts in tests). */
const named = (q: (t: Arg, before: Arg) => Query) => compile('sqlite', q(sql.raw('@t'), sql.raw('@before'))).sql;
export const STALE_SQL = named(directStale);
export const WITH_STALE_RECENT_SIDE_SQL = named(withStaleRecentSide);

const ZERO: TenantCounters = { total_nodes: 0, validated_nodes: 0, total_captures: 0, pending_captures: 0, total_links: 0 };

export class GraphHealthRepo {
  /** Per tenant: whether the recent side was the shorter one last time (both sides give the exact count). */
  private readonly recentSideShorter = new Map<string, boolean>();

  constructor(private readonly db: Database) {}

  /** Nodes not validated whose updated_at (ISO 8601 UTC) is before `beforeIso`. */
  async staleCount(tenantId: string, beforeIso: string): Promise<number> {
    return (await this.withStale(tenantId, beforeIso)).stale_nodes;
  }

  /**
   * The counters and the stale count from one statement, the count taken over whichever
   * index range (older or newer than `beforeIso`) was the shorter at the tenant's last call.
   */
  async withStale(tenantId: string, beforeIso: string): Promise<TenantCounters & { stale_nodes: number }> {
    const recent = this.recentSideShorter.get(tenantId) ?? true;
    const r = await this.db.one((recent ? withStaleRecentSide : withStaleOldSide)(tenantId, beforeIso));
    if (!r) return { ...ZERO, stale_nodes: (await this.db.value<number>(directStale(tenantId, beforeIso))) ?? 0 }; // no counters row: the direct count
    const { stale, ...counters } = r;
    const open = counters.total_nodes - counters.validated_nodes;
    this.remember(tenantId, stale >= open - stale);
    return { ...counters, stale_nodes: Number(stale) };
  }

  private remember(tenantId: string, recentShorter: boolean): void {
    if (this.recentSideShorter.size > 10_000) this.recentSideShorter.clear(); // a bound, not an LRU: it is only a hint
    this.recentSideShorter.set(tenantId, recentShorter);
  }
}
