// Turns queued embed jobs into vectors, in batches, off the event loop (the embedder runs
// in a worker thread). Also keeps the vector table in step with the configured model:
// a model change recreates the table and re-embeds every node in the background.
import { iso, type Clock } from '../../clock.js';
import type { Db } from '../../db/open.js';
import type { Embedder } from '../../embed/embedder.js';
import type { Job, JobQueue } from '../../jobs/queue.js';
import type { Logger } from '../../logger.js';
import type { NodesRepo } from '../../repos/nodes.repo.js';
import type { VectorsRepo } from '../../repos/vectors.repo.js';
import { CalibrationsRepo } from '../../repos/calibrations.repo.js';
import { CALIBRATION_SET_HASH, calibrateModel, UNCALIBRATED, type Calibration } from '../../search/calibration.js';
import { embeddingText, textHash } from '../../search/embedding-text.js';
import { EMBED_JOB } from './nodes.service.js';

export const EMBED_BATCH = 32;

export class EmbeddingService {
  private initialised: Promise<void> | undefined;
  private cal: Calibration | null = null;
  private readonly calibrations: CalibrationsRepo;

  constructor(
    private readonly db: Db,
    private readonly embedder: Embedder & { ready?: Promise<void> },
    private readonly nodes: NodesRepo,
    private readonly vectors: VectorsRepo,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly afterEmbed: Array<(tenantId: string, nodeIds: string[]) => void>,
  ) {
    this.calibrations = new CalibrationsRepo(db);
    queue.register({ kind: EMBED_JOB, batchSize: EMBED_BATCH, run: (jobs) => this.run(jobs) });
  }

  /** Waits for the model, then makes sure the vector table belongs to it. */
  init(): Promise<void> {
    return (this.initialised ??= (async () => {
      await this.embedder.ready;
      const changed = this.vectors.ensureSpace(this.embedder.modelId, this.embedder.dimension, iso(this.clock.now()));
      if (changed) this.queueBacklog(true);
      await this.calibrate();
    })());
  }

  /**
   * How the live model's similarities read: computed from the shipped calibration set the
   * first time a model is used (or the set changes) and recorded per model.
   */
  private async calibrate(): Promise<void> {
    const modelId = this.embedder.modelId;
    const stored = this.calibrations.get(modelId, CALIBRATION_SET_HASH);
    if (stored) {
      this.cal = stored;
      return;
    }
    try {
      const cal = await calibrateModel(this.embedder);
      this.calibrations.put(cal, iso(this.clock.now()));
      this.cal = cal;
      this.log.info(`calibrated ${modelId}: query floor ${cal.query.floor}, ceiling ${cal.query.ceiling}; note floor ${cal.note.floor}`);
    } catch (e) {
      // Without a calibration nothing is drawn in by meaning alone; keywords still answer.
      this.log.error(`calibrating ${modelId} failed; semantic-only hits are withheld`, e);
      this.cal = { ...UNCALIBRATED, model_id: modelId };
    }
  }

  /** The live model's calibration; null until the model has loaded. */
  calibration(): Calibration | null {
    return this.cal;
  }

  /** Waits for the model and returns its calibration (UNCALIBRATED if it never loads). */
  async ready(): Promise<Calibration> {
    try {
      await this.init();
    } catch {
      /* reported by init's caller */
    }
    return this.cal ?? UNCALIBRATED;
  }

  /** Queues an embed job for every node without a vector (all of them after a model change). */
  private queueBacklog(modelChanged: boolean): void {
    const n = this.db.transaction(() => {
      if (modelChanged) this.nodes.clearAllEmbedded();
      const rows = this.nodes.unembedded(10_000_000);
      for (const r of rows) this.queue.enqueue(r.tenant_id, EMBED_JOB, { node_id: r.id }, { dedupeKey: `embed:${r.id}` });
      return rows.length;
    })();
    if (n) this.log.info(`embedding model is ${this.embedder.modelId}: re-embedding ${n} node(s) in the background`);
  }

  /** Embeds one query text (search, suggestions, context). */
  async embedQuery(text: string): Promise<Float32Array | null> {
    try {
      await this.init();
      const [v] = await this.embedder.embed([text]);
      return v ?? null;
    } catch (e) {
      this.log.error('query embedding failed; falling back to keyword search', e);
      return null;
    }
  }

  private async run(jobs: Job<{ node_id: string }>[]): Promise<void> {
    await this.init();
    const byTenant = new Map<string, string[]>();
    for (const j of jobs) (byTenant.get(j.tenantId) ?? byTenant.set(j.tenantId, []).get(j.tenantId)!).push(j.payload.node_id);
    for (const [tenantId, ids] of byTenant) {
      const rows = this.nodes.getByIds(tenantId, ids); // deleted nodes simply drop out
      const todo = rows.map((r) => ({ row: r, text: embeddingText(r) })).map((x) => ({ ...x, hash: textHash(x.text) }));
      const pending = todo.filter((x) => x.row.embedded_hash !== x.hash);
      if (pending.length === 0) continue;
      const vectors = await this.embedder.embed(pending.map((x) => x.text));
      const written = this.db.transaction(() => {
        const done: string[] = [];
        pending.forEach((x, i) => {
          // The node may have changed or gone while the model ran: its own job will follow.
          const now = this.nodes.get(tenantId, x.row.id);
          if (!now || textHash(embeddingText(now)) !== x.hash) return;
          this.vectors.upsert(tenantId, now.seq, vectors[i]);
          this.nodes.markEmbedded(tenantId, now.id, x.hash);
          done.push(now.id);
        });
        return done;
      })();
      for (const hook of this.afterEmbed) {
        try {
          hook(tenantId, written);
        } catch (e) {
          this.log.error('afterEmbed hook failed', e);
        }
      }
    }
  }
}
