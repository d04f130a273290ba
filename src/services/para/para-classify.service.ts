// Background classification of nodes into PARA items, run by the durable job queue. The
// classifier files orphans, and on a rescan or a new item it reconsiders its own earlier
// filings (never a user's): a filing that no longer wins is moved or withdrawn. It never
// files a near-empty node (search/substance.ts) nor a node into an item the user removed it
// from. A job is idempotent: rows are written only for nodes still without a user
// association, so re-running it after a crash changes nothing.
import { createHash } from 'node:crypto';
import { iso, type Clock } from '../../clock.js';
import { roundScore } from '../../search/score.js';
import { dot } from '../../vectors/math.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Embedder } from '../../embed/embedder.js';
import type { Job, JobHandler, JobQueue } from '../../jobs/queue.js';
import type { Logger } from '../../logger.js';
import type { NodeRow } from '../../repos/nodes.repo.js';
import type { ParaAutoRepo } from '../../repos/para-auto.repo.js';
import type { AutoAssignment, ParaRepo } from '../../repos/para.repo.js';
import type { Calibration } from '../../search/calibration.js';
import { isNearEmpty } from '../../search/substance.js';
import { buildProfile, decide, DEFAULT_CLASSIFIER, itemText, type ClassifierSettings, type ItemProfile } from './para-scoring.js';
import type { EventSink } from '../../schemas/webhook-events.js';

export const PARA_CLASSIFY_JOB = 'para_classify';

/**
 * node_ids: only these nodes (their embedding just landed; their own automatic filings are
 * reconsidered); item_id: only orphans, only into this item; neither: every orphan, and
 * with reconsider also every node holding only automatic filings (rescan, a new item).
 */
export interface ClassifyPayload {
  node_ids?: string[];
  item_id?: string;
  reconsider?: boolean;
}

/** What a classification pass did. */
export interface ClassifyOutcome extends AutoAssignment {
  /** The automatic filings it replaced (empty: the node was an orphan). */
  replaced?: string[];
}

export interface ClassifyPreview {
  model: string;
  active_items: number;
  decision: { item_id: string; score: number } | null;
  candidates: Array<{ item_id: string; label: string; score: number }>;
}

export interface NodeVectors {
  get(tenantId: string, nodeId: string): Promise<Float32Array | null>;
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
      auto: ParaAutoRepo;
      queue: JobQueue;
      vectors: NodeVectors;
      /** Node rows by id (for the near-empty rule). */
      nodes: { getByIds(tenantId: string, ids: string[]): Promise<NodeRow[]> };
      /** The live model's calibration (waits for the model). */
      calibration: () => Promise<Calibration>;
      embedder: Embedder;
      clock: Clock;
      log: Logger;
      settings?: ClassifierSettings;
      /** Webhooks: para.filed for each automatic filing, in its transaction. */
      events?: EventSink;
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
  async enqueueForNodes(tenantId: string, nodeIds: string[]): Promise<void> {
    // Without an active item there is nothing to file into; a later POST /para or rescan covers these nodes.
    if (nodeIds.length === 0 || !await this.deps.repo.hasActiveItems(tenantId)) return;
    const payload: ClassifyPayload = { node_ids: nodeIds };
    await this.deps.queue.enqueue(tenantId, PARA_CLASSIFY_JOB, payload);
  }

  /** Classifies now; returns the automatic associations written (withdrawals are logged). */
  async classify(tenantId: string, payload: ClassifyPayload): Promise<AutoAssignment[]> {
    const { repo, auto, vectors, embedder } = this.deps;
    const items = await repo.activeItems(tenantId);
    if (items.length === 0) return [];
    if (payload.item_id && !items.some((i) => i.id === payload.item_id)) return [];
    const reconsider = !payload.item_id && (payload.reconsider || payload.node_ids !== undefined);
    let candidates: string[];
    if (payload.node_ids) candidates = await filterAsync(payload.node_ids, (id) => auto.classifierMayFile(tenantId, id));
    else candidates = [...await repo.orphanIds(tenantId), ...(reconsider ? await auto.autoOnlyNodeIds(tenantId) : [])];
    if (!reconsider) candidates = await filterAsync(candidates, (id) => repo.isOrphan(tenantId, id));
    if (candidates.length === 0) return [];

    const cal = await this.deps.calibration();
    const profiles = await this.profiles(tenantId, items);
    const rows = new Map((await this.deps.nodes.getByIds(tenantId, candidates)).map((r) => [r.id, r]));
    const model = embedder.modelId;
    const proposals: { nodeId: string; filing: AutoAssignment | null }[] = [];
    for (const nodeId of candidates) {
      const row = rows.get(nodeId);
      if (!row) continue;
      if (isNearEmpty(row)) {
        proposals.push({ nodeId, filing: null }); // never filed; an old filing is withdrawn
        continue;
      }
      const v = await vectors.get(tenantId, nodeId);
      if (!v) continue; // no vector yet: classified when its embedding lands
      const rejected = await auto.rejectedItems(tenantId, nodeId);
      const open = rejected.size ? profiles.filter((p) => !rejected.has(p.itemId)) : profiles;
      const d = decide(v, open, this.settings, cal);
      if (payload.item_id) {
        if (d && d.itemId === payload.item_id) proposals.push({ nodeId, filing: { nodeId, itemId: d.itemId, score: roundScore(d.score), method: d.method, model } });
        continue;
      }
      proposals.push({ nodeId, filing: d ? { nodeId, itemId: d.itemId, score: roundScore(d.score), method: d.method, model } : null });
    }
    const written = await this.write(tenantId, proposals, reconsider);
    this.deps.log.debug(`para_classify ${tenantId}: ${candidates.length} node(s) looked at, ${written.length} filed`);
    return written;
  }

  /**
   * Applies proposals to nodes that still hold no user association (the user may have
   * filed one meanwhile) into items still active. When reconsidering, the node's other
   * automatic filings are withdrawn; an unchanged filing is left as it is.
   */
  private async write(tenantId: string, proposals: { nodeId: string; filing: AutoAssignment | null }[], reconsider: boolean): Promise<AutoAssignment[]> {
    const { tx, repo, auto, clock } = this.deps;
    return await tx.withTx(async () => {
      const now = iso(clock.now());
      const active = new Set((await repo.activeItems(tenantId)).map((i) => i.id));
      const written: AutoAssignment[] = [];
      for (const { nodeId, filing } of proposals) {
        if (!await auto.classifierMayFile(tenantId, nodeId)) continue;
        const current = await auto.autoItems(tenantId, nodeId);
        // A filing into a completed project stays: that item is no longer being matched against.
        if (current.some((id) => !active.has(id))) continue;
        if (filing && current.length === 1 && current[0] === filing.itemId) continue;
        if (!reconsider && current.length) continue;
        if (filing && !active.has(filing.itemId)) continue;
        if (current.length) await auto.clearAuto(tenantId, nodeId);
        if (filing && await repo.insertAuto(tenantId, filing, now)) {
          written.push(filing);
          await this.deps.events?.emit(tenantId, 'para.filed', { node_id: nodeId, para_item_id: filing.itemId, source: 'auto' });
        }
      }
      return written;
    });
  }

  private async profiles(tenantId: string, items: { id: string; label: string; description: string }[]): Promise<ItemProfile[]> {
    const textVecs = await this.embedTexts(items.map(itemText));
    const out: ItemProfile[] = [];
    for (const [i, item] of items.entries()) {
      const vecs: Float32Array[] = [];
      for (const id of await this.deps.repo.userNodeIds(tenantId, item.id, CENTROID_SAMPLE)) {
        const v = await this.deps.vectors.get(tenantId, id);
        if (v) vecs.push(v);
      }
      out.push(buildProfile(item.id, textVecs[i], vecs, this.settings));
    }
    return out;
  }

  /**
   * What filing would decide for a vector right now, against the items' labels alone (the
   * capture pipeline records it as provenance; the job decides for real once the node's
   * vector is stored, weighing the items' existing nodes too).
   */
  async preview(tenantId: string, vector: Float32Array): Promise<ClassifyPreview> {
    const items = await this.deps.repo.activeItems(tenantId);
    const model = `para-scoring cosine:label (threshold ${this.settings.threshold}, margin ${this.settings.margin})+${this.deps.embedder.modelId}`;
    if (items.length === 0) return { model, active_items: 0, decision: null, candidates: [] };
    const textVecs = await this.embedTexts(items.map(itemText));
    const profiles = items.map((it, i) => buildProfile(it.id, textVecs[i], [], this.settings));
    const candidates = profiles
      .map((p, i) => ({ item_id: p.itemId, label: items[i].label, score: roundScore(dot(vector, p.vector)) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 3);
    const d = decide(vector, profiles, this.settings, await this.deps.calibration());
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

/** The items for which `keep` holds, asked one after another (each may read the database). */
async function filterAsync<T>(items: T[], keep: (x: T) => Promise<boolean>): Promise<T[]> {
  const out: T[] = [];
  for (const x of items) if (await keep(x)) out.push(x);
  return out;
}
