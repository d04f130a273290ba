// Tenants as an operator sees them: create (with a first key), list, suspend and resume,
// issue a first key to a tenant that has none, and delete — everything the tenant holds,
// after a confirmation token (deletion-token.ts), irreversibly.
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { ConflictError, NotFoundError, TenantSuspendedError, ValidationError } from '../../errors.js';
import type { TenantAdminRepo, TenantAdminRow, TenantStatus } from '../../repos/tenant-admin.repo.js';
import type { TenantPurgeRepo } from '../../repos/tenant-purge.repo.js';
import type { AuthService } from '../auth/auth.service.js';
import type { TenantsService } from '../auth/tenants.service.js';
import { DELETION_TOKEN_TTL_MS, deletionToken, deletionTokenValid } from './deletion-token.js';

export interface TenantAdminDeps {
  tx: UnitOfWork;
  repo: TenantAdminRepo;
  purge: TenantPurgeRepo;
  tenants: TenantsService;
  auth: AuthService;
  /** The vector store's removal of one node's vector (its in-memory index forgets it after commit). */
  removeVector: (tenantId: string, seq: number) => Promise<void>;
  /** Signs deletion confirmations (derived from the server secret). */
  tokenKey: Buffer;
  clock: Clock;
}

export class TenantAdminService {
  constructor(private readonly d: TenantAdminDeps) {}

  async create(name: string): Promise<TenantAdminRow & { api_key: string }> {
    const made = await this.d.tenants.create(name);
    return { ...(await this.get(made.tenant_id)), api_key: made.api_key };
  }

  async list(): Promise<TenantAdminRow[]> {
    return await this.d.repo.list();
  }

  async get(tenantId: string): Promise<TenantAdminRow> {
    const row = await this.d.repo.get(tenantId);
    if (!row) throw new NotFoundError('Tenant');
    return row;
  }

  async suspend(tenantId: string): Promise<TenantAdminRow> {
    return await this.setStatus(tenantId, 'suspended');
  }

  async resume(tenantId: string): Promise<TenantAdminRow> {
    return await this.setStatus(tenantId, 'active');
  }

  private async setStatus(tenantId: string, status: TenantStatus): Promise<TenantAdminRow> {
    const row = await this.get(tenantId);
    // Suspending a suspended tenant keeps the first suspension's time.
    if (row.status !== status) await this.d.repo.setStatus(tenantId, status, status === 'suspended' ? iso(this.d.clock.now()) : null);
    this.d.auth.forgetTenant(tenantId);
    return await this.get(tenantId);
  }

  /**
   * A key for a tenant that has none working (new through another path, or every key
   * revoked). A tenant that has one manages its own keys: the operator cannot mint a key
   * into a working tenant's data (409).
   */
  async issueFirstKey(tenantId: string, name: string) {
    const row = await this.get(tenantId);
    if (row.api_keys > 0) throw new ConflictError(`Tenant "${row.name}" already has ${row.api_keys} working API key(s); it creates further keys itself (POST /api/v1/auth/api-keys)`);
    return await this.d.auth.createApiKey(tenantId, name);
  }

  /** Step one of deleting: a token that confirms it, valid for ten minutes. Changes nothing. */
  async requestDeletion(tenantId: string) {
    const row = await this.get(tenantId);
    const expiresAt = this.d.clock.now() + DELETION_TOKEN_TTL_MS;
    return {
      tenant: row,
      confirmation_token: deletionToken(this.d.tokenKey, tenantId, expiresAt),
      expires_at: iso(expiresAt),
    };
  }

  /** Step two: with a valid token, every row of the tenant goes, in one transaction. */
  async delete(tenantId: string, token: string): Promise<{ tenant_id: string; deleted_rows: Record<string, number> }> {
    await this.get(tenantId);
    if (!deletionTokenValid(this.d.tokenKey, tenantId, token, this.d.clock.now())) {
      throw new ValidationError('The confirmation token is invalid, expired or for another tenant; request a new one (POST …/deletion)', [{ path: 'confirm', message: 'invalid or expired confirmation token' }]);
    }
    const deleted_rows = await this.d.tx.withTx(async () => {
      for (const seq of await this.d.repo.nodeSeqs(tenantId)) await this.d.removeVector(tenantId, seq);
      return await this.d.purge.purge(tenantId);
    });
    this.d.auth.forgetTenant(tenantId);
    return { tenant_id: tenantId, deleted_rows };
  }

  /**
   * Refuses a suspended tenant's credentials (403 tenant_suspended); a deleted tenant's find
   * no key. `known`: the status already read with the credential (not read again).
   */
  async assertActive(tenantId: string, known?: string): Promise<void> {
    if ((known ?? await this.d.repo.status(tenantId)) === 'suspended') throw new TenantSuspendedError();
  }
}
