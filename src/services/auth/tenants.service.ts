// Tenants and the first-run bootstrap (tenant `default` with one API key).
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { ValidationError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { TenantsRepo } from '../../repos/tenants.repo.js';
import type { AuthService } from './auth.service.js';

export class TenantsService {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: TenantsRepo,
    private readonly auth: AuthService,
    private readonly clock: Clock,
  ) {}

  async create(name: string): Promise<{ tenant_id: string; api_key: string }> {
    if (!/^[a-z0-9][a-z0-9_-]{0,62}$/i.test(name)) {
      throw new ValidationError('Tenant name must be 1–63 letters, digits, "-" or "_"', [{ path: 'name', message: 'invalid tenant name' }]);
    }
    return await this.tx.withTx(async () => {
      if (await this.repo.findByName(name)) throw new ValidationError(`Tenant "${name}" already exists`);
      const id = newId('ten');
      await this.repo.insert({ id, name, created_at: iso(this.clock.now()) });
      const key = await this.auth.createApiKey(id, 'default');
      return { tenant_id: id, api_key: key.key };
    });
  }

  /** On an empty database: create `default` and its key. Returns null when anything exists. */
  async bootstrap(): Promise<{ tenant_id: string; api_key: string } | null> {
    return await this.tx.withTx(async () => (await this.repo.count() === 0 ? await this.create('default') : null));
  }

  /** How many tenants the install has (request budgets apply only when there are several). */
  async count(): Promise<number> {
    return await this.repo.count();
  }

  async findByName(name: string) {
    return await this.repo.findByName(name);
  }
}
