// Rules, their log of actions, and the facts rules match existing nodes on.
import type { Database } from '../db/store/contract.js';
import { statementCache, type Prepare } from './statement-cache.js';

export interface RuleRow {
  id: string;
  tenant_id: string;
  name: string;
  conditions: string;
  actions: string;
  position: number;
  created_at: string;
}

export interface RuleActionRow {
  id: string;
  tenant_id: string;
  rule_id: string;
  node_id: string | null;
  kind: string;
  detail: string;
  source: string;
  created_at: string;
  undone_at: string | null;
}

/** A node with where it came from (its capture's URL and type, the feed of that capture). */
export interface NodeFactsRow {
  id: string;
  title: string;
  tags: string;
  status: string;
  url: string | null;
  content_type: string | null;
  feed_id: string | null;
}

export class RulesRepo {
  private readonly prepare: Prepare;

  constructor(db: Database) {
    this.prepare = statementCache(db);
  }

  async insert(row: RuleRow): Promise<void> {
    await this.prepare('INSERT INTO rules (id, tenant_id, name, conditions, actions, position, created_at) VALUES (@id, @tenant_id, @name, @conditions, @actions, @position, @created_at)').run(row);
  }

  /** The tenant's rules in the order they apply. */
  async list(tenantId: string): Promise<RuleRow[]> {
    return await this.prepare('SELECT * FROM rules WHERE tenant_id = ? ORDER BY position, created_at, id').all(tenantId) as RuleRow[];
  }

  async get(tenantId: string, id: string): Promise<RuleRow | undefined> {
    return await this.prepare('SELECT * FROM rules WHERE tenant_id = ? AND id = ?').get(tenantId, id) as RuleRow | undefined;
  }

  async update(tenantId: string, id: string, p: Pick<RuleRow, 'name' | 'conditions' | 'actions' | 'position'>): Promise<void> {
    await this.prepare('UPDATE rules SET name = @name, conditions = @conditions, actions = @actions, position = @position WHERE tenant_id = @tenant_id AND id = @id').run({ ...p, tenant_id: tenantId, id });
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return (await this.prepare('DELETE FROM rules WHERE tenant_id = ? AND id = ?').run(tenantId, id)).changes > 0;
  }

  async nextPosition(tenantId: string): Promise<number> {
    return Number(await this.prepare('SELECT coalesce(max(position), 0) + 10 FROM rules WHERE tenant_id = ?').pluck().get(tenantId));
  }

  async logAction(row: Omit<RuleActionRow, 'undone_at'>): Promise<void> {
    await this.prepare(
      `INSERT INTO rule_actions (id, tenant_id, rule_id, node_id, kind, detail, source, created_at) VALUES (@id, @tenant_id, @rule_id, @node_id, @kind, @detail, @source, @created_at)`,
    ).run(row);
  }

  async log(tenantId: string, ruleId: string, limit: number): Promise<RuleActionRow[]> {
    return await this.prepare('SELECT * FROM rule_actions WHERE tenant_id = ? AND rule_id = ? ORDER BY created_at DESC, id DESC LIMIT ?').all(tenantId, ruleId, limit) as RuleActionRow[];
  }

  async action(tenantId: string, id: string): Promise<RuleActionRow | undefined> {
    return await this.prepare('SELECT * FROM rule_actions WHERE tenant_id = ? AND id = ?').get(tenantId, id) as RuleActionRow | undefined;
  }

  async markUndone(tenantId: string, id: string, at: string): Promise<void> {
    await this.prepare('UPDATE rule_actions SET undone_at = ? WHERE tenant_id = ? AND id = ?').run(at, tenantId, id);
  }

  /** Every node of the tenant with the facts rules match on (a node made by several captures: its first). */
  async nodeFacts(tenantId: string): Promise<NodeFactsRow[]> {
    return await this.prepare(
      `SELECT n.id, n.title, n.tags, n.status, c.url, c.content_type, fi.feed_id
         FROM nodes n
         LEFT JOIN captures c ON c.tenant_id = n.tenant_id AND c.node_id = n.id
         LEFT JOIN feed_items fi ON fi.tenant_id = c.tenant_id AND fi.capture_id = c.id
        WHERE n.tenant_id = ?
        ORDER BY n.seq, c.created_at`,
    ).all(tenantId) as NodeFactsRow[];
  }
}
