import type { Db } from '../db/open.js';

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

  constructor(db: Db) {
    this.insertStmt = db.prepare('INSERT INTO users (id, tenant_id, email, created_at) VALUES (@id, @tenant_id, @email, @created_at)');
    // Login starts from an email alone; the user row is what names the tenant.
    // Without case on both sides: SQLite's NOCASE column index; PostgreSQL's lower(email) index.
    this.byEmailStmt = db.prepare('SELECT * FROM users WHERE email COLLATE NOCASE = ? COLLATE NOCASE');
    this.byIdStmt = db.prepare('SELECT * FROM users WHERE tenant_id = ? AND id = ?');
  }

  insert(row: UserRow): void {
    this.insertStmt.run(row);
  }
  findByEmail(email: string): UserRow | undefined {
    return this.byEmailStmt.get(email) as UserRow | undefined;
  }
  findById(tenantId: string, id: string): UserRow | undefined {
    return this.byIdStmt.get(tenantId, id) as UserRow | undefined;
  }
}
