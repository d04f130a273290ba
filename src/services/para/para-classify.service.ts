// Background classification of orphan nodes into PARA items, run by the durable job
// queue. A job is idempotent: it only ever adds an 'auto' association to a node that is
// still an orphan when the row is written, so re-running it after a crash changes nothing.
import { createHash } from 'node:crypto';
import { iso, type Clock } from '../../clock.js';
import { roundScore } from '../../search/score.js';
import { dot } from '../../vectors/math.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Embedder } from '../../embed/embedder.js';
import type { Job, JobHandler, JobQueue } from '../../jobs/queue.js';
import type { Logger } from '../../logger.js';
import type { AutoAssignment, ParaRepo } from '../../repos/para.repo.js';
import { buildProfile, decide, DEFAULT_CLASSIFIER, itemText, type ClassifierSettings, type ItemProfile } from './para-scoring.js';

export const PARA_CLASSIFY_JOB = 'para_classify';

/** node_ids: only these nodes (their embedding just landed); item_id: only assign to this item; neither: every orphan. */
export interface ClassifyPayload {
  node_ids?: string[];
  item_id?: string;
}

export interface ClassifyPreview {
  model: string;
  active_items: number;
  decision: { item_id: string; score: number } | null;
  candidates: Array<{ item_id: string; label: string; score: number }>;
}

export interface NodeVectors {
  get(tenantId: string, nodeId: string): Float32Array | null;
}

/** User-filed nodes sampled for an item's centroid: recent ones describe what the item is about now. */
const CENTROID_SAMPLE = 200;
const TEXT_CACHE_MAX = 2000;

export class ParaClassifier {
  private readonly textVectors = new Map<string, Float32Array>();
  /** Threshold and margin in force (the eval harness and tests adjust them). */
  settings: ClassifierSettings;

  constructor(
    private readonly deps: {
      tx: UnitOfWork;
      repo: ParaRepo;
      queue: JobQueue;
      vectors: NodeVectors;
      embedder: Embedder;
      clock: Clock;
      log: Logger;
      settings?: ClassifierSettings;
    },
  ) {
    this.settings = { ...(deps.settings ?? DEFAULT_CLASSIFIER) };
  }

  /** The durable job that files orphans. */
  jobHandler(): JobHandler<ClassifyPayload> {
    return {
      kind: PARA_CLASSIFY_JOB,
      run: async (jobs: Job<ClassifyPayload>[]) => {
        for (const job of jobs) await this.classify(job.tenantId, job.payload);
      },
    };
  }

  /** Nodes whose vectors just landed (the vector store's "embedded" event) get a chance to find their item. */
  enqueueForNodes(tenantId: string, nodeIds: string[]): void {
    // Without an active item there is nothing to file into; a later POST /para or rescan covers these nodes.
    if (nodeIds.length === 0 || !this.deps.repo.hasActiveItems(tenantId)) return;
    const payload: ClassifyPayload = { node_ids: nodeIds };
    this.deps.queue.enqueue(tenantId, PARA_CLASSIFY_JOB, payload);
  }

  /** Classifies orphans now; returns the associations written. */
  async classify(tenantId: string, payload: ClassifyPayload): Promise<AutoAssignment[]> {
    const { repo, vectors, embedder } = this.deps;
    const items = repo.activeItems(tenantId);
    if (items.length === 0) return [];
    if (payload.item_id && !items.some((i) => i.id === payload.item_id)) return [];
    const candidates = (payload.node_ids ?? repo.orphanIds(tenantId)).filter((id) => repo.isOrphan(tenantId, id));
    if (candidates.length === 0) return [];

    const profiles = await this.profiles(tenantId, items);
    const model = embedder.modelId;
    const proposals: AutoAssignment[] = [];
    for (const nodeId of candidates) {
      const v = vectors.get(tenantId, nodeId);
      if (!v) continue; // no vector yet: classified when its embedding lands
      const d = decide(v, profiles, this.settings);
      if (!d || (payload.item_id && d.itemId !== payload.item_id)) continue;
      proposals.push({ nodeId, itemId: d.itemId, score: roundScore(d.score ), method: d.method, model });
    }
    const written = this.write(tenantId, proposals);
    this.deps.log.debug(`para_classify ${tenantId}: ${candidates.length} orphan(s) looked at, ${written.length} filed`);
    return written;
  }

  /** Writes proposals whose node is still an orphan and whose item is still active (both may have changed while embedding). */
  private write(tenantId: string, proposals: AutoAssignment[]): AutoAssignment[] {
    const { tx, repo, clock } = this.deps;
    return tx.withTx(() => {
      const now = iso(clock.now());
      const active = new Set(repo.activeItems(tenantId).map((i) => i.id));
      const written: AutoAssignment[] = [];
      for (const p of proposals) {
        if (!active.has(p.itemId) || !repo.isOrphan(tenantId, p.nodeId)) continue;
        if (repo.insertAuto(tenantId, p, now)) written.push(p);
      }
      return written;
    });
  }

  private async profiles(tenantId: string, items: { id: string; label: string; description: string }[]): Promise<ItemProfile[]> {
    const textVecs = await this.embedTexts(items.map(itemText));
    return items.map((item, i) => {
      const members = this.deps.repo.userNodeIds(tenantId, item.id, CENTROID_SAMPLE);
      const vecs = members.map((id) => this.deps.vectors.get(tenantId, id)).filter((v): v is Float32Array => v !== null);
      return buildProfile(item.id, textVecs[i], vecs, this.settings);
    });
  }

  /**
   * What filing would decide for a vector right now, against the items' labels alone (the
   * capture pipeline records it as provenance; the job decides for real once the node's
   * vector is stored, weighing the items' existing nodes too).
   */
  async preview(tenantId: string, vector: Float32Array): Promise<ClassifyPreview> {
    const items = this.deps.repo.activeItems(tenantId);
    const model = `para-scoring cosine:label (threshold ${this.settings.threshold}, margin ${this.settings.margin})+${this.deps.embedder.modelId}`;
    if (items.length === 0) return { model, active_items: 0, decision: null, candidates: [] };
    const textVecs = await this.embedTexts(items.map(itemText));
    const profiles = items.map((it, i) => buildProfile(it.id, textVecs[i], [], this.settings));
    const candidates = profiles
      .map((p, i) => ({ item_id: p.itemId, label: items[i].label, score: roundScore(dot(vector, p.vector)) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 3);
    const d = decide(vector, profiles, this.settings);
    return { model, active_items: items.length, decision: d ? { item_id: d.itemId, score: roundScore(d.score) } : null, candidates };
  }

  /** Item texts change rarely: their vectors are cached per model and text (the capture
   *  pipeline's classify stage reads them through here too). */
  async embedTexts(texts: string[]): Promise<Float32Array[]> {
    const { embedder } = this.deps;
    const keyOf = (t: string) => `${embedder.modelId}:${createHash('sha256').update(t).digest('base64')}`;
    const missing = [...new Set(texts.filter((t) => !this.textVectors.has(keyOf(t))))];
    if (missing.length) {
      const vecs = await embedder.embed(missing);
      if (this.textVectors.size + missing.length > TEXT_CACHE_MAX) this.textVectors.clear();
      // modelId is known only once the model has loaded, i.e. after the first embed.
      missing.forEach((t, i) => this.textVectors.set(keyOf(t), vecs[i]));
    }
    return texts.map((t) => this.textVectors.get(keyOf(t))!);
  }
}
