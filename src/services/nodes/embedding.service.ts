// Turns queued embed jobs into vectors, in batches, off the event loop (the embedder runs
// in a worker thread), and embeds query texts for search, suggestions, context and
// captures. Also keeps the vector table in step with the configured model: a model change
// recreates it and re-embeds every node in the background.
import { LRUCache } from 'lru-cache';
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Embedder } from '../../embed/embedder.js';
import type { Job, JobHandler, JobQueue } from '../../jobs/queue.js';
import type { Logger } from '../../logger.js';
import type { CalibrationsRepo } from '../../repos/calibrations.repo.js';
import type { NodesRepo } from '../../repos/nodes.repo.js';
import { mentionedDates } from '../../search/query-dates.js';
import { CALIBRATION_SET_HASH, calibrateModel, UNCALIBRATED, type Calibration } from '../../search/calibration.js';
import { embeddingKey, embeddingText, passageEmbeddingText } from '../../search/embedding-text.js';
import { embeddedPassages } from '../../search/passages.js';
import type { VectorStore } from '../../vectors/vector-store.js';
import { EMBED_JOB, embedDedupeKey, type EmbedJobPayload } from './embed-job.js';

/** Query vectors kept (LRU): a repeated search skips the model; 0 would embed every query (docs/reliability.md, load bench). */
export const QUERY_CACHE_SIZE = 1000;

export const EMBED_BATCH = 32;

/**
 * Nodes queued per transaction when a model change (or an upgrade) leaves nodes without
 * vectors. Queued in one transaction, 100k nodes held SQLite's turn and the event loop for
 * ~6 s at start (/health waited); a batch of 1,000 takes ~50 ms, and other requests run
 * between batches.
 */
export const BACKLOG_BATCH = 1000;

export interface EmbeddingDeps {
  tx: UnitOfWork;
  embedder: Embedder & { ready?: Promise<void> };
  nodes: NodesRepo;
  vectors: VectorStore;
  queue: JobQueue;
  clock: Clock;
  log: Logger;
  /** Where each model's calibration is recorded. */
  calibrations: CalibrationsRepo;
  /** Query vectors kept (least recently used dropped); 0: none. */
  queryCacheSize?: number;
  /** Nodes queued per transaction for the backlog; default BACKLOG_BATCH. */
  backlogBatch?: number;
}

export class EmbeddingService {
  private initialised: Promise<void> | undefined;
  private cal: Calibration | null = null;
  /** Recent query vectors, by model and text: a repeated query (typing, paging, an agent's retries) costs no model call. */
  private readonly queryCache: LRUCache<string, Float32Array> | undefined;
  /** Identical queries in flight share one model call. */
  private readonly inFlight = new Map<string, Promise<Float32Array | null>>();

  constructor(private readonly d: EmbeddingDeps) {
    const size = d.queryCacheSize ?? QUERY_CACHE_SIZE;
    if (size > 0) this.queryCache = new LRUCache({ max: size });
  }

  /** The durable job that embeds nodes, claimed in batches. */
  jobHandler(): JobHandler<EmbedJobPayload> {
    return { kind: EMBED_JOB, batchSize: EMBED_BATCH, run: (jobs) => this.run(jobs) };
  }

  /** Waits for the model, then makes sure the vector table belongs to it. */
  init(): Promise<void> {
    return (this.initialised ??= (async () => {
      await this.d.embedder.ready;
      const { modelId, dimension } = this.d.embedder;
      // A new model re-embeds everything; else notes left without vectors (an upgrade that
      // added passages, a job lost with an old version) are queued again (deduplicated).
      if (await this.d.vectors.ensureSpace(modelId, dimension, iso(this.d.clock.now())) || (await this.d.nodes.unembedded(1)).length) await this.queueBacklog();
      await this.calibrate();
    })());
  }

  /**
   * How the live model's similarities read: computed from the shipped calibration set the
   * first time a model is used (or the set or method changes) and recorded per model.
   */
  private async calibrate(): Promise<void> {
    const modelId = this.d.embedder.modelId;
    const stored = await this.d.calibrations.get(modelId, CALIBRATION_SET_HASH);
    if (stored) {
      this.cal = stored;
      return;
    }
    try {
      const cal = await calibrateModel(this.d.embedder);
      await this.d.calibrations.put(cal, iso(this.d.clock.now()));
      this.cal = cal;
      this.d.log.info(`calibrated ${modelId}: query floor ${cal.query.floor}, ceiling ${cal.query.ceiling}; note floor ${cal.note.floor}`);
    } catch (e) {
      // Without a calibration nothing is drawn in by meaning alone; keywords still answer.
      this.d.log.error(`calibrating ${modelId} failed; semantic-only hits are withheld`, e);
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

  /** Embeds one query text; null when no model is available (callers fall back to keywords). */
  async embedQuery(text: string): Promise<Float32Array | null> {
    try {
      await this.init();
    } catch (e) {
      this.d.log.error('query embedding failed; falling back to keyword search', e);
      return null;
    }
    const key = `${this.d.embedder.modelId}\n${text}`;
    const cached = this.queryCache?.get(key);
    if (cached) return cached;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.d.embedder.embed([text], 'query').then(
        ([v]) => {
          if (v) this.queryCache?.set(key, v);
          return v ?? null;
        },
        (e) => {
          this.d.log.error('query embedding failed; falling back to keyword search', e);
          return null;
        },
      );
      this.inFlight.set(key, pending);
      void pending.finally(() => this.inFlight.delete(key));
    }
    return pending;
  }

  /** Queues an embed job for every node without a vector (all of them after a model change). */
  private async queueBacklog(): Promise<void> {
    const batch = Math.max(1, this.d.backlogBatch ?? BACKLOG_BATCH);
    let n = 0;
    for (let after = 0; ; ) {
      // One transaction a batch, and a turn of the event loop between batches: requests and
      // other transactions go between them. The jobs are deduplicated by node, so a batch
      // written twice (a restart in the middle) queues nothing twice; enqueueInTx, as nobody
      // reads which were duplicates (on PostgreSQL the batch's inserts leave with its COMMIT).
      const rows = await this.d.tx.withTx(async () => {
        const rows = await this.d.nodes.unembedded(batch, after);
        for (const r of rows) await this.d.queue.enqueueInTx(r.tenant_id, EMBED_JOB, { node_id: r.id }, { dedupeKey: embedDedupeKey(r.id) });
        return rows;
      });
      n += rows.length;
      if (rows.length < batch) break;
      after = rows[rows.length - 1]!.seq;
      await new Promise((r) => setImmediate(r));
    }
    if (n) this.d.log.info(`embedding model is ${this.d.embedder.modelId}: re-embedding ${n} node(s) in the background`);
  }

  private async run(jobs: Job<EmbedJobPayload>[]): Promise<void> {
    await this.init();
    const byTenant = new Map<string, string[]>();
    for (const j of jobs) (byTenant.get(j.tenantId) ?? byTenant.set(j.tenantId, []).get(j.tenantId)!).push(j.payload.node_id);
    for (const [tenantId, ids] of byTenant) {
      const rows = await this.d.nodes.getByIds(tenantId, ids); // deleted nodes simply drop out
      const pending = rows.filter((r) => r.embedded_hash !== embeddingKey(r)).map((r) => ({ id: r.id, text: embeddingText(r), row: r, spans: embeddedPassages(r.body_markdown) }));
      if (pending.length === 0) continue;
      // The same background pass over a node's new text keeps the dates it mentions, read
      // relative to the node's own date (chrono costs ~3 µs a character: not on the write path).
      for (const p of pending) await this.d.nodes.setMentionedDates(tenantId, p.id, mentionedDates(`${p.row.title}\n${p.row.summary}\n${p.row.body_markdown}`, new Date(p.row.occurred_at ?? p.row.created_at)));
      // One model request for the notes and their passages (the scheduler cuts it into chunks
      // a waiting query can pass between).
      const texts = pending.flatMap((x) => [x.text, ...x.spans.map((sp) => passageEmbeddingText(x.row.title, x.row.body_markdown, sp))]);
      const vectors = await this.d.embedder.embed(texts);
      let at = 0;
      const writes = pending.map((x) => {
        const vector = vectors[at++];
        const passages = x.spans.map((sp) => ({ start: sp.start, end: sp.end, vector: vectors[at++] }));
        return { nodeId: x.id, text: x.text, vector, ...(x.spans.length ? { passages: { body: x.row.body_markdown, vectors: passages } } : {}) };
      });
      await this.d.vectors.storeNodeVectors(tenantId, writes, this.d.embedder.modelId);
    }
  }
}
