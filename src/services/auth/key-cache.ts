// The API keys read in the last second, by key id: nearly every request of a client presents
// the key its last request did, and reading it again (with its tenant's status) was one of
// the three or four statements of a typical read — on PostgreSQL a round trip each. The
// secret is still checked on every request against the kept digest. What this process
// changes (a key revoked, a tenant suspended, resumed or deleted) is forgotten at once; a
// change made by another process is seen within KEY_CACHE_MS (docs/security.md).
import type { ApiKeyRow } from '../../repos/api-keys.repo.js';

export const KEY_CACHE_MS = 1000;
/** Keys held at most (a flood of distinct valid keys empties it rather than growing it). */
const MAX_KEYS = 10_000;

export type ActiveKey = ApiKeyRow & { tenant_status: string };

export class KeyCache {
  private readonly rows = new Map<string, { row: ActiveKey; at: number }>();

  get(id: string): ActiveKey | undefined {
    const e = this.rows.get(id);
    if (!e) return undefined;
    if (performance.now() - e.at < KEY_CACHE_MS) return e.row;
    this.rows.delete(id);
    return undefined;
  }

  set(row: ActiveKey): void {
    if (this.rows.size >= MAX_KEYS) this.rows.clear();
    this.rows.set(row.id, { row, at: performance.now() });
  }

  forgetKey(id: string): void {
    this.rows.delete(id);
  }

  forgetTenant(tenantId: string): void {
    for (const [id, e] of this.rows) if (e.row.tenant_id === tenantId) this.rows.delete(id);
  }
}
