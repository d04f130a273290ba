// Rules, their log of actions, and the facts rules match existing nodes on.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

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
  constructor(private readonly db: Database) {}

  async insert(row: RuleRow): Promise<void> {
    await this.db.run(sql`INSERT INTO rules (id, tenant_id, name, conditions, actions, position, created_at)
      VALUES (${row.id}, ${row.tenant_id}, ${row.name}, ${row.conditions}, ${row.actions}, ${row.position}, ${row.created_at})`);
  }

  /** The tenant's rules in the order they apply. */
  async list(tenantId: string): Promise<RuleRow[]> {
    return await this.db.all(sql<RuleRow>`SELECT * FROM rules WHERE tenant_id = ${tenantId} ORDER BY position, created_at, id`);
  }

  async get(tenantId: string, id: string): Promise<RuleRow | undefined> {
    return await this.db.one(sql<RuleRow>`SELECT * FROM rules WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async update(tenantId: string, id: string, p: Pick<RuleRow, 'name' | 'conditions' | 'actions' | 'position'>): Promise<void> {
    await this.db.run(sql`UPDATE rules SET name = ${p.name}, conditions = ${p.conditions}, actions = ${p.actions}, position = ${p.position}
      WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM rules WHERE tenant_id = ${tenantId} AND id = ${id}`)).changes > 0;
  }

  async nextPosition(tenantId: string): Promise<number> {
    return Number(await this.db.value(sql`SELECT coalesce(max(position), 0) + 10 FROM rules WHERE tenant_id = ${tenantId}`));
  }

  async logAction(row: Omit<RuleActionRow, 'undone_at'>): Promise<void> {
    await this.db.run(sql`INSERT INTO rule_actions (id, tenant_id, rule_id, node_id, kind, detail, source, created_at)
      VALUES (${row.id}, ${row.tenant_id}, ${row.rule_id}, ${row.node_id}, ${row.kind}, ${row.detail}, ${row.source}, ${row.created_at})`);
  }

  async log(tenantId: string, ruleId: string, limit: number): Promise<RuleActionRow[]> {
    return await this.db.all(
      sql<RuleActionRow>`SELECT * FROM rule_actions WHERE tenant_id = ${tenantId} AND rule_id = ${ruleId} ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
    );
  }

  async action(tenantId: string, id: string): Promise<RuleActionRow | undefined> {
    return await this.db.one(sql<RuleActionRow>`SELECT * FROM rule_actions WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async markUndone(tenantId: string, id: string, at: string): Promise<void> {
    await this.db.run(sql`UPDATE rule_actions SET undone_at = ${at} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  /** Every node of the tenant with the facts rules match on (a node made by several captures: its first). */
  async nodeFacts(tenantId: string): Promise<NodeFactsRow[]> {
    return await this.db.all(sql<NodeFactsRow>`SELECT n.id, n.title, n.tags, n.status, c.url, c.content_type, fi.feed_id
        FROM nodes n
        LEFT JOIN captures c ON c.tenant_id = n.tenant_id AND c.node_id = n.id
        LEFT JOIN feed_items fi ON fi.tenant_id = c.tenant_id AND fi.capture_id = c.id
       WHERE n.tenant_id = ${tenantId}
       ORDER BY n.seq, c.created_at`);
  }
}
