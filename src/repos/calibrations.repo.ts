// Per-model calibrations (search/calibration.ts), computed once per model and calibration set.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';
import type { Calibration } from '../search/calibration.js';

export class CalibrationsRepo {
  constructor(private readonly db: Database) {}

  async get(modelId: string, setHash: string): Promise<Calibration | null> {
    const row = await this.db.value<string>(sql`SELECT calibration FROM embedding_calibrations WHERE model_id = ${modelId} AND set_hash = ${setHash}`);
    return row ? (JSON.parse(row) as Calibration) : null;
  }

  async put(cal: Calibration, at: string): Promise<void> {
    await this.db.run(
      sql`INSERT INTO embedding_calibrations (model_id, set_hash, calibration, computed_at) VALUES (${cal.model_id}, ${cal.set_hash}, ${JSON.stringify(cal)}, ${at})
          ON CONFLICT (model_id) DO UPDATE SET set_hash = excluded.set_hash, calibration = excluded.calibration, computed_at = excluded.computed_at`,
    );
  }
}
