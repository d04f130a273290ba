import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

export interface UserRow {
  id: string;
  tenant_id: string;
  email: string;
  created_at: string;
}

export class UsersRepo {
  constructor(private readonly db: Database) {}

  async insert(row: UserRow): Promise<void> {
    await this.db.run(sql`INSERT INTO users (id, tenant_id, email, created_at) VALUES (${row.id}, ${row.tenant_id}, ${row.email}, ${row.created_at})`);
  }
  /**
   * Login starts from an email alone; the user row is what names the tenant. Without case on
   * both sides, each engine through its own index: SQLite's NOCASE column, PostgreSQL's lower(email).
   */
  async findByEmail(email: string): Promise<UserRow | undefined> {
    return await this.db.one(
      this.db.engine === 'postgres'
        ? sql<UserRow>`SELECT * FROM users WHERE lower(email) = lower(${email})`
        : sql<UserRow>`SELECT * FROM users WHERE email COLLATE NOCASE = ${email} COLLATE NOCASE`,
    );
  }
  async findById(tenantId: string, id: string): Promise<UserRow | undefined> {
    return await this.db.one(sql<UserRow>`SELECT * FROM users WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }
}
