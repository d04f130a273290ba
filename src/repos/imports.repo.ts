// Import bookkeeping: which node each imported file became (by source + path, with the
// file's content hash), and each import run's status, counts and problems.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

export interface ImportKeyRow {
  node_id: string;
  content_hash: string;
}

export interface ImportRow {
  id: string;
  tenant_id: string;
  kind: 'markdown' | 'bookmarks' | 'highlights';
  status: 'running' | 'completed' | 'failed' | 'interrupted';
  total: number;
  counts: string;
  problems: string;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

export class ImportsRepo {
  constructor(private readonly db: Database) {}

  async key(tenantId: string, key: string): Promise<ImportKeyRow | undefined> {
    return await this.db.one(sql<ImportKeyRow>`SELECT k.node_id, k.content_hash FROM import_keys k WHERE k.tenant_id = ${tenantId} AND k.key = ${key}`);
  }

  /** Every imported file with this content, newest first. */
  async byHash(tenantId: string, hash: string): Promise<Array<ImportKeyRow & { key: string }>> {
    return await this.db.all(
      sql<ImportKeyRow & { key: string }>`SELECT k.node_id, k.content_hash, k.key FROM import_keys k
        WHERE k.tenant_id = ${tenantId} AND k.content_hash = ${hash} ORDER BY k.updated_at DESC`,
    );
  }

  async upsertKey(tenantId: string, key: string, nodeId: string, hash: string, at: string): Promise<void> {
    await this.db.run(
      sql`INSERT INTO import_keys (tenant_id, key, node_id, content_hash, updated_at) VALUES (${tenantId}, ${key}, ${nodeId}, ${hash}, ${at})
          ON CONFLICT (tenant_id, key) DO UPDATE SET node_id = excluded.node_id, content_hash = excluded.content_hash, updated_at = excluded.updated_at`,
    );
  }

  async insert(row: Pick<ImportRow, 'id' | 'tenant_id' | 'kind' | 'status' | 'total' | 'created_at'>): Promise<void> {
    await this.db.run(
      sql`INSERT INTO imports (id, tenant_id, kind, status, total, created_at) VALUES (${row.id}, ${row.tenant_id}, ${row.kind}, ${row.status}, ${row.total}, ${row.created_at})`,
    );
  }

  async get(tenantId: string, id: string): Promise<ImportRow | undefined> {
    return await this.db.one(sql<ImportRow>`SELECT * FROM imports WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async progress(tenantId: string, id: string, counts: string, problems: string): Promise<void> {
    await this.db.run(sql`UPDATE imports SET counts = ${counts}, problems = ${problems} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async finish(tenantId: string, id: string, status: ImportRow['status'], counts: string, problems: string, error: string | null, at: string): Promise<void> {
    await this.db.run(
      sql`UPDATE imports SET status = ${status}, counts = ${counts}, problems = ${problems}, error = ${error}, finished_at = ${at}
          WHERE tenant_id = ${tenantId} AND id = ${id}`,
    );
  }

  /** At start-up: runs a previous process left unfinished. Their counts say what landed. */
  async interruptAll(at: string): Promise<number> {
    return (await this.db.run(sql`UPDATE imports SET status = 'interrupted', finished_at = ${at} WHERE status = 'running'`)).changes;
  }
}
