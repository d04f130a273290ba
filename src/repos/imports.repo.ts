// Import bookkeeping: which node each imported file became (by source + path, with the
// file's content hash), and each import run's status, counts and problems.
import type { Database } from '../db/store/contract.js';

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
  private readonly keyStmt;
  private readonly byHashStmt;
  private readonly upsertKeyStmt;
  private readonly insertStmt;
  private readonly getStmt;
  private readonly progressStmt;
  private readonly finishStmt;
  private readonly interruptStmt;

  constructor(db: Database) {
    this.keyStmt = db.prepare('SELECT k.node_id, k.content_hash FROM import_keys k WHERE k.tenant_id = ? AND k.key = ?');
    this.byHashStmt = db.prepare('SELECT k.node_id, k.content_hash, k.key FROM import_keys k WHERE k.tenant_id = ? AND k.content_hash = ? ORDER BY k.updated_at DESC');
    this.upsertKeyStmt = db.prepare(
      `INSERT INTO import_keys (tenant_id, key, node_id, content_hash, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, key) DO UPDATE SET node_id = excluded.node_id, content_hash = excluded.content_hash, updated_at = excluded.updated_at`,
    );
    this.insertStmt = db.prepare('INSERT INTO imports (id, tenant_id, kind, status, total, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    this.getStmt = db.prepare('SELECT * FROM imports WHERE tenant_id = ? AND id = ?');
    this.progressStmt = db.prepare('UPDATE imports SET counts = ?, problems = ? WHERE tenant_id = ? AND id = ?');
    this.finishStmt = db.prepare('UPDATE imports SET status = ?, counts = ?, problems = ?, error = ?, finished_at = ? WHERE tenant_id = ? AND id = ?');
    this.interruptStmt = db.prepare("UPDATE imports SET status = 'interrupted', finished_at = ? WHERE status = 'running'");
  }

  async key(tenantId: string, key: string): Promise<ImportKeyRow | undefined> {
    return await this.keyStmt.get(tenantId, key) as ImportKeyRow | undefined;
  }

  /** Every imported file with this content, newest first. */
  async byHash(tenantId: string, hash: string): Promise<Array<ImportKeyRow & { key: string }>> {
    return await this.byHashStmt.all(tenantId, hash) as Array<ImportKeyRow & { key: string }>;
  }

  async upsertKey(tenantId: string, key: string, nodeId: string, hash: string, at: string): Promise<void> {
    await this.upsertKeyStmt.run(tenantId, key, nodeId, hash, at);
  }

  async insert(row: Pick<ImportRow, 'id' | 'tenant_id' | 'kind' | 'status' | 'total' | 'created_at'>): Promise<void> {
    await this.insertStmt.run(row.id, row.tenant_id, row.kind, row.status, row.total, row.created_at);
  }

  async get(tenantId: string, id: string): Promise<ImportRow | undefined> {
    return await this.getStmt.get(tenantId, id) as ImportRow | undefined;
  }

  async progress(tenantId: string, id: string, counts: string, problems: string): Promise<void> {
    await this.progressStmt.run(counts, problems, tenantId, id);
  }

  async finish(tenantId: string, id: string, status: ImportRow['status'], counts: string, problems: string, error: string | null, at: string): Promise<void> {
    await this.finishStmt.run(status, counts, problems, error, at, tenantId, id);
  }

  /** At start-up: runs a previous process left unfinished. Their counts say what landed. */
  async interruptAll(at: string): Promise<number> {
    return (await this.interruptStmt.run(at)).changes;
  }
}
