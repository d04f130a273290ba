// Operator keys: install-wide credentials (no tenant) for the admin routes and /metrics.
// Only the server's own CLI inserts them; no route does.
import type { Db } from '../db/open.js';

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
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare('INSERT INTO operator_keys (id, name, secret_hmac, created_at) VALUES (@id, @name, @secret_hmac, @created_at)'),
      active: db.prepare('SELECT * FROM operator_keys WHERE id = ? AND revoked_at IS NULL'),
      list: db.prepare('SELECT id, name, created_at, last_used_at FROM operator_keys WHERE revoked_at IS NULL ORDER BY created_at, id'),
      revoke: db.prepare('UPDATE operator_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      touch: db.prepare('UPDATE operator_keys SET last_used_at = ? WHERE id = ?'),
    };
  }

  insert(row: Pick<OperatorKeyRow, 'id' | 'name' | 'secret_hmac' | 'created_at'>): void {
    this.s.insert.run(row);
  }
  findActive(id: string): OperatorKeyRow | undefined {
    return this.s.active.get(id) as OperatorKeyRow | undefined;
  }
  list(): OperatorKeyListing[] {
    return this.s.list.all() as OperatorKeyListing[];
  }
  revoke(id: string, at: string): boolean {
    return this.s.revoke.run(at, id).changes > 0;
  }
  touch(id: string, at: string): void {
    this.s.touch.run(at, id);
  }
}
