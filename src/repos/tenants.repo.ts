import type { Db } from '../db/open.js';

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

  constructor(db: Db) {
    this.insertStmt = db.prepare('INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)');
    this.byNameStmt = db.prepare('SELECT * FROM tenants WHERE name = ?');
    this.byIdStmt = db.prepare('SELECT * FROM tenants WHERE id = ?');
    this.countStmt = db.prepare('SELECT count(*) AS n FROM tenants').pluck();
    this.listStmt = db.prepare('SELECT * FROM tenants ORDER BY created_at');
    this.metaGet = db.prepare('SELECT value FROM server_meta WHERE key = ?').pluck();
    this.metaSet = db.prepare('INSERT INTO server_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING');
  }

  insert(row: TenantRow): void {
    this.insertStmt.run(row.id, row.name, row.created_at);
  }
  findByName(name: string): TenantRow | undefined {
    return this.byNameStmt.get(name) as TenantRow | undefined;
  }
  findById(id: string): TenantRow | undefined {
    return this.byIdStmt.get(id) as TenantRow | undefined;
  }
  count(): number {
    return this.countStmt.get() as number;
  }
  list(): TenantRow[] {
    return this.listStmt.all() as TenantRow[];
  }
  /** Install-wide settings; setting an existing key keeps the first value. */
  getMeta(key: string): string | undefined {
    return this.metaGet.get(key) as string | undefined;
  }
  setMetaOnce(key: string, value: string): void {
    this.metaSet.run(key, value);
  }
}
