// Rules, their log of actions, and the facts rules match existing nodes on.
import type { Db } from '../db/open.js';
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

  constructor(db: Db) {
    this.prepare = statementCache(db);
  }

  insert(row: RuleRow): void {
    this.prepare('INSERT INTO rules (id, tenant_id, name, conditions, actions, position, created_at) VALUES (@id, @tenant_id, @name, @conditions, @actions, @position, @created_at)').run(row);
  }

  /** The tenant's rules in the order they apply. */
  list(tenantId: string): RuleRow[] {
    return this.prepare('SELECT * FROM rules WHERE tenant_id = ? ORDER BY position, created_at, id').all(tenantId) as RuleRow[];
  }

  get(tenantId: string, id: string): RuleRow | undefined {
    return this.prepare('SELECT * FROM rules WHERE tenant_id = ? AND id = ?').get(tenantId, id) as RuleRow | undefined;
  }

  update(tenantId: string, id: string, p: Pick<RuleRow, 'name' | 'conditions' | 'actions' | 'position'>): void {
    this.prepare('UPDATE rules SET name = @name, conditions = @conditions, actions = @actions, position = @position WHERE tenant_id = @tenant_id AND id = @id').run({ ...p, tenant_id: tenantId, id });
  }

  delete(tenantId: string, id: string): boolean {
    return this.prepare('DELETE FROM rules WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0;
  }

  nextPosition(tenantId: string): number {
    return Number(this.prepare('SELECT coalesce(max(position), 0) + 10 FROM rules WHERE tenant_id = ?').pluck().get(tenantId));
  }

  logAction(row: Omit<RuleActionRow, 'undone_at'>): void {
    this.prepare(
      `INSERT INTO rule_actions (id, tenant_id, rule_id, node_id, kind, detail, source, created_at) VALUES (@id, @tenant_id, @rule_id, @node_id, @kind, @detail, @source, @created_at)`,
    ).run(row);
  }

  log(tenantId: string, ruleId: string, limit: number): RuleActionRow[] {
    return this.prepare('SELECT * FROM rule_actions WHERE tenant_id = ? AND rule_id = ? ORDER BY created_at DESC, id DESC LIMIT ?').all(tenantId, ruleId, limit) as RuleActionRow[];
  }

  action(tenantId: string, id: string): RuleActionRow | undefined {
    return this.prepare('SELECT * FROM rule_actions WHERE tenant_id = ? AND id = ?').get(tenantId, id) as RuleActionRow | undefined;
  }

  markUndone(tenantId: string, id: string, at: string): void {
    this.prepare('UPDATE rule_actions SET undone_at = ? WHERE tenant_id = ? AND id = ?').run(at, tenantId, id);
  }

  /** Every node of the tenant with the facts rules match on (a node made by several captures: its first). */
  nodeFacts(tenantId: string): NodeFactsRow[] {
    return this.prepare(
      `SELECT n.id, n.title, n.tags, n.status, c.url, c.content_type, fi.feed_id
         FROM nodes n
         LEFT JOIN captures c ON c.tenant_id = n.tenant_id AND c.node_id = n.id
         LEFT JOIN feed_items fi ON fi.tenant_id = c.tenant_id AND fi.capture_id = c.id
        WHERE n.tenant_id = ?
        ORDER BY n.seq, c.created_at`,
    ).all(tenantId) as NodeFactsRow[];
  }
}
