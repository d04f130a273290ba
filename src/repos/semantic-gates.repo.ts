// Each tenant's semantic gate as measured (services/nodes/semantic-gates.ts decides when it
// is measured again): one row per tenant, for the model it was measured with.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';
import type { TenantGate } from '../search/tenant-gate.js';

export interface StoredGate {
  model: string;
  /** The tenant's vector count when it was measured. */
  notes: number;
  gate: TenantGate;
}

export class SemanticGatesRepo {
  constructor(private readonly db: Database) {}

  async get(tenantId: string): Promise<StoredGate | null> {
    const row = await this.db.one<{ model_id: string; notes: number | string; gate: string }>(sql`SELECT model_id, notes, gate FROM semantic_gates WHERE tenant_id = ${tenantId}`);
    return row ? { model: row.model_id, notes: Number(row.notes), gate: JSON.parse(row.gate) as TenantGate } : null;
  }

  async put(tenantId: string, g: StoredGate, at: string): Promise<void> {
    await this.db.run(
      sql`INSERT INTO semantic_gates (tenant_id, model_id, notes, gate, measured_at) VALUES (${tenantId}, ${g.model}, ${g.notes}, ${JSON.stringify(g.gate)}, ${at})
          ON CONFLICT (tenant_id) DO UPDATE SET model_id = excluded.model_id, notes = excluded.notes, gate = excluded.gate, measured_at = excluded.measured_at`,
    );
  }
}
