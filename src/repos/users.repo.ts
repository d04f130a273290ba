import type { Database } from '../db/store/contract.js';

export interface UserRow {
  id: string;
  tenant_id: string;
  email: string;
  created_at: string;
}

export class UsersRepo {
  private readonly insertStmt;
  private readonly byEmailStmt;
  private readonly byIdStmt;

  constructor(db: Database) {
    this.insertStmt = db.prepare('INSERT INTO users (id, tenant_id, email, created_at) VALUES (@id, @tenant_id, @email, @created_at)');
    // Login starts from an email alone; the user row is what names the tenant.
    // Without case on both sides: SQLite's NOCASE column index; PostgreSQL's lower(email) index.
    this.byEmailStmt = db.prepare('SELECT * FROM users WHERE email COLLATE NOCASE = ? COLLATE NOCASE');
    this.byIdStmt = db.prepare('SELECT * FROM users WHERE tenant_id = ? AND id = ?');
  }

  async insert(row: UserRow): Promise<void> {
    await this.insertStmt.run(row);
  }
  async findByEmail(email: string): Promise<UserRow | undefined> {
    return await this.byEmailStmt.get(email) as UserRow | undefined;
  }
  async findById(tenantId: string, id: string): Promise<UserRow | undefined> {
    return await this.byIdStmt.get(tenantId, id) as UserRow | undefined;
  }
}
