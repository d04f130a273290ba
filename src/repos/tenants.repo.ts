import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

export interface TenantRow {
  id: string;
  name: string;
  created_at: string;
}

export class TenantsRepo {
  constructor(private readonly db: Database) {}

  async insert(row: TenantRow): Promise<void> {
    await this.db.run(sql`INSERT INTO tenants (id, name, created_at) VALUES (${row.id}, ${row.name}, ${row.created_at})`);
  }
  async findByName(name: string): Promise<TenantRow | undefined> {
    return await this.db.one(sql<TenantRow>`SELECT * FROM tenants WHERE name = ${name}`);
  }
  async findById(id: string): Promise<TenantRow | undefined> {
    return await this.db.one(sql<TenantRow>`SELECT * FROM tenants WHERE id = ${id}`);
  }
  async count(): Promise<number> {
    return (await this.db.value<number>(sql`SELECT count(*) AS n FROM tenants`)) as number;
  }
  async list(): Promise<TenantRow[]> {
    return await this.db.all(sql<TenantRow>`SELECT * FROM tenants ORDER BY created_at`);
  }
  /** Install-wide settings; setting an existing key keeps the first value. */
  async getMeta(key: string): Promise<string | undefined> {
    return await this.db.value<string>(sql`SELECT value FROM server_meta WHERE key = ${key}`);
  }
  async setMetaOnce(key: string, value: string): Promise<void> {
    await this.db.run(sql`INSERT INTO server_meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`);
  }
}
