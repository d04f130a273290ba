import type { Database } from '../db/store/contract.js';

export interface TenantRow {
  id: string;
  name: string;
  created_at: string;
}

export class TenantsRepo {
  private readonly insertStmt;
  private readonly byNameStmt;
  private readonly byIdStmt;
  private readonly countStmt;
  private readonly listStmt;
  private readonly metaGet;
  private readonly metaSet;

  constructor(db: Database) {
    this.insertStmt = db.prepare('INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)');
    this.byNameStmt = db.prepare('SELECT * FROM tenants WHERE name = ?');
    this.byIdStmt = db.prepare('SELECT * FROM tenants WHERE id = ?');
    this.countStmt = db.prepare('SELECT count(*) AS n FROM tenants').pluck();
    this.listStmt = db.prepare('SELECT * FROM tenants ORDER BY created_at');
    this.metaGet = db.prepare('SELECT value FROM server_meta WHERE key = ?').pluck();
    this.metaSet = db.prepare('INSERT INTO server_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING');
  }

  async insert(row: TenantRow): Promise<void> {
    await this.insertStmt.run(row.id, row.name, row.created_at);
  }
  async findByName(name: string): Promise<TenantRow | undefined> {
    return await this.byNameStmt.get(name) as TenantRow | undefined;
  }
  async findById(id: string): Promise<TenantRow | undefined> {
    return await this.byIdStmt.get(id) as TenantRow | undefined;
  }
  async count(): Promise<number> {
    return await this.countStmt.get() as number;
  }
  async list(): Promise<TenantRow[]> {
    return await this.listStmt.all() as TenantRow[];
  }
  /** Install-wide settings; setting an existing key keeps the first value. */
  async getMeta(key: string): Promise<string | undefined> {
    return await this.metaGet.get(key) as string | undefined;
  }
  async setMetaOnce(key: string, value: string): Promise<void> {
    await this.metaSet.run(key, value);
  }
}
