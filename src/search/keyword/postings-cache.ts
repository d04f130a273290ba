// Every tenant's kept keyword index (tenant-postings.ts) under one memory cap: past it, the
// least recently used terms of the least recently used tenants go first (a term dropped is
// read again when a query needs it). A whole tenant can be evicted and loaded again (the
// many-tenants budget decides when: it reads bytesOf() and lastUsed()). Pure.
import type { TenantPostings } from './tenant-postings.js';

/**
 * Default cap: 350 B per node of the largest tenant served, at least 48 MB (ten terms held by
 * every node). The warm-up holds about that much per node at 100k (36 MB, every term held by
 * 64+ notes) and the kept postings before this module held 352 MB at 1M; at 160 B, 1M notes
 * kept only the 640 most held terms: keyword p50 44 ms on the first pass of the bench
 * queries (terms read on first use), 4.8 ms on the second.
 */
export const CACHE_MIN_BYTES = 48 * 1024 * 1024;
export const CACHE_BYTES_PER_NODE = 350;

export class PostingsCache {
  private readonly tenants = new Map<string, TenantPostings>();
  private largest = 0;
  /** A fixed cap in bytes (null: grows with the largest tenant, as above). */
  capBytes: number | null = null;

  get(tenantId: string): TenantPostings | undefined {
    return this.tenants.get(tenantId);
  }

  set(tenantId: string, t: TenantPostings, nodes: number): void {
    this.tenants.set(tenantId, t);
    this.largest = Math.max(this.largest, nodes);
  }

  /** Forgets a tenant's kept index; the bytes freed. */
  evictTenant(tenantId: string): number {
    const t = this.tenants.get(tenantId);
    this.tenants.delete(tenantId);
    return t?.bytes ?? 0;
  }

  tenantIds(): string[] {
    return [...this.tenants.keys()];
  }

  bytesOf(tenantId: string): number {
    return this.tenants.get(tenantId)?.bytes ?? 0;
  }

  /** When a query last used the tenant (ms; 0: never or not kept). */
  lastUsed(tenantId: string): number {
    return this.tenants.get(tenantId)?.lastUsed ?? 0;
  }

  bytes(): number {
    let b = 0;
    for (const t of this.tenants.values()) b += t.bytes;
    return b;
  }

  cap(): number {
    return this.capBytes ?? Math.max(CACHE_MIN_BYTES, this.largest * CACHE_BYTES_PER_NODE);
  }

  /** Drops least recently used terms until under the cap, `keep`'s terms last (those a query is using). */
  trim(keep?: Set<string>): void {
    let over = this.bytes() - this.cap();
    if (over <= 0) return;
    const byUse = [...this.tenants.values()].sort((a, b) => a.lastUsed - b.lastUsed);
    for (const t of byUse) {
      for (let term = t.oldestTerm(); term !== undefined && over > 0; term = t.oldestTerm()) {
        if (keep?.has(term) && t === byUse[byUse.length - 1]) return;
        over -= t.drop(term);
      }
      if (over <= 0) return;
    }
  }
}
