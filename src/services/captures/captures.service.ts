// Captures, assembled: intake (accept and queue), lifecycle (reads and status changes)
// and the pipeline (the durable job that turns a capture into a node).
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/open.js';
import type { Embedder } from '../../embed/embedder.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Logger } from '../../logger.js';
import { CapturesRepo } from '../../repos/captures.repo.js';
import type { JobsRepo } from '../../repos/jobs.repo.js';
import type { KnnHit, VectorsRepo } from '../../repos/vectors.repo.js';
import type { NodesRepo } from '../../repos/nodes.repo.js';
import { embeddingText, textHash } from '../../search/embedding-text.js';
import { CapturesIntake } from './captures-intake.service.js';
import { CapturesLifecycle } from './captures-lifecycle.service.js';
import { CapturePipeline, type NodeWriter } from './captures-pipeline.service.js';
import type { StageDeps } from './captures-stages.js';

export interface CapturesDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  queue: JobQueue;
  jobs: JobsRepo;
  embedder: Embedder;
  embedQuery(text: string): Promise<Float32Array | null>;
  knn(tenantId: string, v: Float32Array, k: number): KnnHit[];
  nodes: NodeWriter;
  para?: StageDeps['para'];
  suggest?: StageDeps['suggest'];
}

/** NodeWriter.adoptVector over the node and vector repositories (see the pipeline). */
export function vectorAdopter(d: { nodesRepo: NodesRepo; vectors: VectorsRepo; modelId(): string }) {
  return (tenantId: string, nodeId: string, text: string, vector: Float32Array): boolean => {
    const row = d.nodesRepo.get(tenantId, nodeId);
    const space = d.vectors.space();
    if (!row || !space || space.model_id !== d.modelId() || space.dimension !== vector.length) return false;
    if (embeddingText(row) !== text) return false;
    d.vectors.upsert(tenantId, row.seq, vector);
    d.nodesRepo.markEmbedded(tenantId, nodeId, textHash(text));
    return true;
  };
}

export function createCaptures(d: CapturesDeps) {
  const repo = new CapturesRepo(d.db);
  const intake = new CapturesIntake(d.db, repo, d.queue, d.clock);
  const lifecycle = new CapturesLifecycle(d.db, repo, d.queue, d.clock);
  const pipeline = new CapturePipeline({ ...d, repo });
  pipeline.register(d.queue);
  return { repo, intake, lifecycle, pipeline };
}

export type Captures = ReturnType<typeof createCaptures>;
