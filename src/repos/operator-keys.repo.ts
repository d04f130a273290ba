// Operator keys: install-wide credentials (no tenant) for the admin routes and /metrics.
// Only the server's own CLI inserts them; no route does.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

export interface OperatorKeyRow {
  id: string;
  name: string;
  secret_hmac: Buffer;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export type OperatorKeyListing = Pick<OperatorKeyRow, 'id' | 'name' | 'created_at' | 'last_used_at'>;

export class OperatorKeysRepo {
  constructor(private readonly db: Database) {}

  async insert(row: Pick<OperatorKeyRow, 'id' | 'name' | 'secret_hmac' | 'created_at'>): Promise<void> {
    await this.db.run(sql`INSERT INTO operator_keys (id, name, secret_hmac, created_at) VALUES (${row.id}, ${row.name}, ${row.secret_hmac}, ${row.created_at})`);
  }
  async findActive(id: string): Promise<OperatorKeyRow | undefined> {
    return await this.db.one(sql<OperatorKeyRow>`SELECT * FROM operator_keys WHERE id = ${id} AND revoked_at IS NULL`);
  }
  async list(): Promise<OperatorKeyListing[]> {
    return await this.db.all(sql<OperatorKeyListing>`SELECT id, name, created_at, last_used_at FROM operator_keys WHERE revoked_at IS NULL ORDER BY created_at, id`);
  }
  async revoke(id: string, at: string): Promise<boolean> {
    return (await this.db.run(sql`UPDATE operator_keys SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL`)).changes > 0;
  }
  async touch(id: string, at: string): Promise<void> {
    await this.db.run(sql`UPDATE operator_keys SET last_used_at = ${at} WHERE id = ${id}`);
  }
}
