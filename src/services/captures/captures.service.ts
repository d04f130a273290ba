// Captures, assembled: intake (accept and queue), lifecycle (reads and status changes)
// and the pipeline (the durable job that turns a capture into a node).
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Embedder } from '../../embed/embedder.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Logger } from '../../logger.js';
import type { CapturesRepo } from '../../repos/captures.repo.js';
import type { CaptureSnapshotsRepo } from '../../repos/capture-snapshots.repo.js';
import { CaptureArchiver } from './capture-archive.service.js';
import { LinkChecker } from './capture-link-check.js';
import type { VectorStore } from '../../vectors/vector-store.js';
import { CapturesIntake } from './captures-intake.service.js';
import { CapturesLifecycle } from './captures-lifecycle.service.js';
import { CapturePipeline, type NodeWriter, type PipelineDeps } from './captures-pipeline.service.js';
import type { StageDeps } from './captures-stages.js';

export interface CapturesDeps {
  config: Config;
  tx: UnitOfWork;
  repo: CapturesRepo;
  clock: Clock;
  log: Logger;
  queue: JobQueue;
  embedder: Embedder;
  embedQuery(text: string): Promise<Float32Array | null>;
  vectors: Pick<VectorStore, 'knn' | 'storeNodeVectors'>;
  nodes: NodeWriter;
  para?: StageDeps['para'];
  suggest?: StageDeps['suggest'];
  links?: PipelineDeps['links'];
  events?: PipelineDeps['events'];
  highlights?: PipelineDeps['highlights'];
  snapshots: CaptureSnapshotsRepo;
}

export function createCaptures(d: CapturesDeps) {
  const intake = new CapturesIntake(d.tx, d.repo, d.queue, d.clock);
  const lifecycle = new CapturesLifecycle(d.tx, d.repo, d.queue, d.clock);
  // The archived copy and the link check run as their own jobs, after a capture completes.
  const archive = new CaptureArchiver({ config: d.config, repo: d.repo, snapshots: d.snapshots, queue: d.queue, clock: d.clock, log: d.log });
  const linkCheck = new LinkChecker({ repo: d.repo, snapshots: d.snapshots, queue: d.queue, clock: d.clock, allowPrivateFetch: d.config.allowPrivateFetch });
  const pipeline = new CapturePipeline({ ...d, jobs: d.queue, knn: async (t, v, k) => await d.vectors.knn(t, v, k), archive });
  return { intake, lifecycle, pipeline, archive, linkCheck };
}

export type Captures = ReturnType<typeof createCaptures>;
