import type { Database } from '../db/store/contract.js';
import type { ParaCategory, ParaItem, ParaStatus } from '../schemas/para.js';

export interface ParaItemRow extends ParaItem {
  tenant_id: string;
}

export interface AutoAssignment {
  nodeId: string;
  itemId: string;
  score: number;
  method: string;
  model: string;
}

const COLS = 'id, category, label, description, slug, status, created_at, updated_at';

// PARA items, their node associations (node_para) and the durable per-tenant rate limits.
// An association is visible while archived = 0; "orphan" means no visible association.
export class ParaRepo {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly listStmt;
  private readonly slugsStmt;
  private readonly updateStmt;
  private readonly hideStmt;
  private readonly restoreStmt;
  private readonly countsStmt;
  private readonly activeStmt;
  private readonly anyActiveStmt;
  private readonly orphansStmt;
  private readonly isOrphanStmt;
  private readonly itemNodesStmt;
  private readonly insertAutoStmt;
  private readonly rateGetStmt;
  private readonly rateSetStmt;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO para_items (id, tenant_id, category, label, description, slug, status, created_at, updated_at)
       VALUES (@id, @tenant_id, @category, @label, @description, @slug, 'active', @created_at, @created_at)`,
    );
    this.getStmt = db.prepare(`SELECT ${COLS} FROM para_items WHERE tenant_id = ? AND id = ?`);
    // The casts give a parameter tested only for NULL a type (PostgreSQL needs one).
    this.listStmt = db.prepare(
      `SELECT ${COLS} FROM para_items
       WHERE tenant_id = @tenant_id AND (CAST(@category AS TEXT) IS NULL OR category = @category) AND (CAST(@status AS TEXT) IS NULL OR status = @status)
       ORDER BY CASE category WHEN 'projects' THEN 0 WHEN 'areas' THEN 1 ELSE 2 END, label COLLATE NOCASE, id`,
    );
    this.slugsStmt = db
      .prepare(`SELECT slug FROM para_items WHERE tenant_id = ? AND (slug = ? OR slug LIKE ? ESCAPE '\\') AND id IS NOT ?`)
      .pluck();
    this.updateStmt = db.prepare(
      `UPDATE para_items SET label = @label, description = @description, slug = @slug, status = @status, updated_at = @updated_at
       WHERE tenant_id = @tenant_id AND id = @id`,
    );
    this.hideStmt = db.prepare('UPDATE node_para SET archived = 1 WHERE tenant_id = ? AND para_item_id = ? AND archived = 0');
    this.restoreStmt = db.prepare('UPDATE node_para SET archived = 0 WHERE tenant_id = ? AND para_item_id = ? AND archived = 1');
    this.countsStmt = db.prepare('SELECT para_item_id AS id, count(*) AS n FROM node_para WHERE tenant_id = ? GROUP BY para_item_id');
    this.activeStmt = db.prepare(`SELECT ${COLS} FROM para_items WHERE tenant_id = ? AND status = 'active' ORDER BY id`);
    this.anyActiveStmt = db.prepare("SELECT 1 FROM para_items WHERE tenant_id = ? AND status = 'active' LIMIT 1").pluck();
    this.orphansStmt = db
      .prepare(
        `SELECT n.id FROM nodes n
         WHERE n.tenant_id = ? AND n.status != 'dismissed'
           AND NOT EXISTS (SELECT 1 FROM node_para np WHERE np.tenant_id = n.tenant_id AND np.node_id = n.id AND np.archived = 0)
         ORDER BY n.seq`,
      )
      .pluck();
    this.isOrphanStmt = db
      .prepare(
        `SELECT 1 FROM nodes n
         WHERE n.tenant_id = ? AND n.id = ? AND n.status != 'dismissed'
           AND NOT EXISTS (SELECT 1 FROM node_para np WHERE np.tenant_id = n.tenant_id AND np.node_id = n.id AND np.archived = 0)`,
      )
      .pluck();
    this.itemNodesStmt = db
      .prepare(
        `SELECT node_id FROM node_para WHERE tenant_id = ? AND para_item_id = ? AND archived = 0 AND source = 'user'
         ORDER BY created_at DESC LIMIT ?`,
      )
      .pluck();
    this.insertAutoStmt = db.prepare(
      `INSERT OR IGNORE INTO node_para (tenant_id, node_id, para_item_id, source, score, method, model, archived, created_at)
       VALUES (?, ?, ?, 'auto', ?, ?, ?, 0, ?)`,
    );
    this.rateGetStmt = db.prepare('SELECT last_at FROM rate_limits WHERE tenant_id = ? AND name = ?').pluck();
    this.rateSetStmt = db.prepare(
      'INSERT INTO rate_limits (tenant_id, name, last_at) VALUES (?, ?, ?) ON CONFLICT (tenant_id, name) DO UPDATE SET last_at = excluded.last_at',
    );
  }

  async insert(row: Omit<ParaItemRow, 'status' | 'updated_at'>): Promise<void> {
    await this.insertStmt.run(row);
  }

  async get(tenantId: string, id: string): Promise<ParaItem | undefined> {
    return await this.getStmt.get(tenantId, id) as ParaItem | undefined;
  }

  async list(tenantId: string, filter: { category?: ParaCategory; status?: ParaStatus }): Promise<ParaItem[]> {
    return await this.listStmt.all({ tenant_id: tenantId, category: filter.category ?? null, status: filter.status ?? null }) as ParaItem[];
  }

  /** Slugs equal to base or of the form base-N (the candidates a new slug must avoid). */
  async slugsLike(tenantId: string, base: string, excludeId: string | null): Promise<string[]> {
    const escaped = base.replace(/[\\%_]/g, (m) => `\\${m}`);
    return await this.slugsStmt.all(tenantId, base, `${escaped}-%`, excludeId) as string[];
  }

  async update(tenantId: string, item: ParaItem): Promise<void> {
    const { id, label, description, slug, status, updated_at } = item;
    await this.updateStmt.run({ tenant_id: tenantId, id, label, description, slug, status, updated_at });
  }

  /** Hides the item's visible associations; only this sets archived = 1, so restore undoes exactly it. */
  async hideAssociations(tenantId: string, itemId: string): Promise<number> {
    return (await this.hideStmt.run(tenantId, itemId)).changes;
  }

  async restoreAssociations(tenantId: string, itemId: string): Promise<number> {
    return (await this.restoreStmt.run(tenantId, itemId)).changes;
  }

  /** Associations per item (visible for live items; for archived ones, those unarchive restores). */
  async nodeCounts(tenantId: string): Promise<Map<string, number>> {
    const rows = await this.countsStmt.all(tenantId) as { id: string; n: number }[];
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  async activeItems(tenantId: string): Promise<ParaItem[]> {
    return await this.activeStmt.all(tenantId) as ParaItem[];
  }

  async hasActiveItems(tenantId: string): Promise<boolean> {
    return await this.anyActiveStmt.get(tenantId) === 1;
  }

  async orphanIds(tenantId: string): Promise<string[]> {
    return await this.orphansStmt.all(tenantId) as string[];
  }

  async isOrphan(tenantId: string, nodeId: string): Promise<boolean> {
    return await this.isOrphanStmt.get(tenantId, nodeId) === 1;
  }

  /**
   * The nodes the user filed in the item, most recent first: its centroid sample. Automatic
   * assignments stay out so the classifier never learns from its own guesses (measured:
   * warm-start precision 0.93 with them, 0.96 without).
   */
  async userNodeIds(tenantId: string, itemId: string, limit: number): Promise<string[]> {
    return await this.itemNodesStmt.all(tenantId, itemId, limit) as string[];
  }

  async insertAuto(tenantId: string, a: AutoAssignment, createdAt: string): Promise<boolean> {
    return (await this.insertAutoStmt.run(tenantId, a.nodeId, a.itemId, a.score, a.method, a.model, createdAt)).changes === 1;
  }

  async rateLimitLastAt(tenantId: string, name: string): Promise<number | null> {
    return (await this.rateGetStmt.get(tenantId, name) as number | undefined) ?? null;
  }

  async setRateLimit(tenantId: string, name: string, at: number): Promise<void> {
    await this.rateSetStmt.run(tenantId, name, at);
  }
}
