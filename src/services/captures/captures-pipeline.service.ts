// One durable job per capture runs the stages in order, recording each in capture_stages,
// then creates (or, on reingest, updates) the node and marks the capture completed in the
// SAME transaction that deletes the job row. A crash anywhere before that commit leaves the
// job to be re-run from the start; a crash after it leaves nothing to do. Either way a
// capture completes exactly once, with one node.
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Extracted, Source } from '../../ingest/extract/index.js';
import { bookmarkNode } from './capture-bookmark.js';
import { keepPageImages, type PageImagesFound } from './capture-images.js';
import { CAPTURE_MAX_ATTEMPTS, captureRetryDelayMs } from './capture-retries.js';
import type { Job, JobHandler, JobQueue } from '../../jobs/queue.js';
import type { VectorStore, VectorWrite } from '../../vectors/vector-store.js';
import type { HighlightsService } from '../highlights/highlights.service.js';
import type { CaptureArchiver } from './capture-archive.service.js';
import type { Logger } from '../../logger.js';
import type { CaptureRow } from '../../repos/captures.repo.js';
import type { CaptureStage } from '../../schemas/captures.js';
import { embeddingText, passageEmbeddingText } from '../../search/embedding-text.js';
import { embeddedPassages } from '../../search/passages.js';
import {
  classifyStage, embedStage, extractStage, fetchStage, isTransient, linkStage, summarizeStage, tagStage, userTags,
  type StageDeps, type StageResult,
} from './captures-stages.js';
import { CAPTURE_JOB, effectiveStatus, moveTo, type CaptureJobPayload } from './captures-view.js';
import { noEvents, type EventSink } from '../../schemas/webhook-events.js';

/** Claims beyond this mean the process keeps dying on this capture: give up on it. */
const CRASH_LIMIT = CAPTURE_MAX_ATTEMPTS + 4;
const NODE_CONTENT_MAX = 500_000;

export interface NodeWriter {
  create(tenantId: string, input: { title: string; content: string; summary: string; tags: string[] }, dates?: { created_at?: string }): Promise<{ id: string }>;
  update(tenantId: string, id: string, patch: { title: string; content: string; summary: string; tags: string[] }): Promise<{ id: string }>;
  exists(tenantId: string, id: string): Promise<boolean>;
}

export interface PipelineDeps extends StageDeps {
  tx: UnitOfWork;
  vectors: Pick<VectorStore, 'storeNodeVectors'>;
  /** Adds a typed link pair keeping the others (nodes that embed a captured file reference it). */
  links?: { add(tenantId: string, sourceId: string, targetId: string, type: 'references'): Promise<boolean> };
  jobs: Pick<JobQueue, 'complete'>;
  clock: Clock;
  log: Logger;
  nodes: NodeWriter;
  /** Webhooks: capture.completed / capture.failed, in the transaction that records them. */
  events?: EventSink;
  /** A capture's selected text becomes its node's first highlight (once: keyed by the capture). */
  highlights?: Pick<HighlightsService, 'add'>;
  /** Queues the page's archived copy with the completing transaction (made after, never before, the capture is done). */
  archive?: Pick<CaptureArchiver, 'enqueueInTx'>;
}

type StageName = (typeof CaptureStage)['_output']['stage'];

/** Stage outputs are for people: long text is cut, long lists are shortened. */
export function truncateOutput(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return v.length > 1000 ? `${v.slice(0, 1000)}… (${v.length} chars)` : v;
  if (Array.isArray(v)) return v.slice(0, 20).map((x) => truncateOutput(x, depth + 1));
  if (v && typeof v === 'object' && depth < 4) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, truncateOutput(x, depth + 1)]));
  return v;
}

function fetchedName(url: string | undefined): string {
  try {
    const last = decodeURIComponent(new URL(url ?? '').pathname.split('/').filter(Boolean).pop() ?? '');
    return last.slice(0, 200) || 'page';
  } catch {
    return 'page';
  }
}

/** Text bodies were re-encoded to UTF-8 by the fetch stage; say so. */
function fetchedMime(src: Source): string {
  return ['html', 'text', 'markdown'].includes(src.kind) ? `${src.mime}; charset=utf-8` : src.mime;
}

export class CapturePipeline {
  private tagCache = new Map<string, { at: number; tags: string[] }>();

  constructor(private readonly d: PipelineDeps) {}

  /** The durable job that turns one capture into a node. */
  jobHandler(): JobHandler<CaptureJobPayload> {
    return {
      kind: CAPTURE_JOB,
      maxAttempts: CAPTURE_MAX_ATTEMPTS,
      retryDelayMs: captureRetryDelayMs,
      run: async (jobs: Job<CaptureJobPayload>[]) => {
        for (const j of jobs) await this.process(j);
      },
    };
  }

  async process(job: Job<CaptureJobPayload>): Promise<void> {
    const { repo, tx, jobs } = this.d;
    const { capture_id: id, run } = job.payload;
    const t = job.tenantId;
    const now = () => iso(this.d.clock.now());
    const live = (c: CaptureRow | undefined): c is CaptureRow => !!c && c.attempts === run && ['pending', 'processing'].includes(effectiveStatus(c));

    const start = await tx.withTx(async () => {
      const c = await repo.get(t, id);
      if (!live(c)) return null; // deleted, dismissed, or superseded by a newer run
      if (job.attempts > CRASH_LIMIT) {
        await this.fail(c, 'processing was interrupted too many times', null, job.id);
        return null;
      }
      await repo.clearRun(t, id, run); // a re-run after a crash starts its provenance afresh
      await repo.setState(t, id, { ...moveTo(c, 'processing'), attempts: c.attempts, error: null, updated_at: now() });
      await repo.addEvent(t, id, 'processing_started', now(), { run, attempt: job.attempts });
      return (await repo.get(t, id))!;
    });
    if (!start) {
      await jobs.complete(job.id);
      return;
    }
    let c = start;
    let stage: StageName = 'fetch';
    try {
      const step = async <T>(name: StageName, fn: () => Promise<StageResult<T>> | StageResult<T>): Promise<T> => {
        stage = name;
        const startedAt = now();
        const r = await fn();
        await tx.withTx(async () => {
          await repo.addStage(t, id, { run, stage: name, started_at: startedAt, finished_at: now(), model: r.model, output: JSON.stringify(truncateOutput(r.output)) });
          await repo.addEvent(t, id, 'stage_completed', now(), { stage: name, model: r.model, run });
        });
        return r.value;
      };
      const source: Source = await step('fetch', () => fetchStage(this.d, c));
      const x: Extracted = await step('extract', () => extractStage(c, source));
      const images = await keepPageImages(this.d, source, x);
      const meta = { ...JSON.parse(c.metadata), ...this.sourceFacts(source), ...x.metadata, ...(x.title ? { document_title: x.title } : {}), ...images.facts };
      await repo.setMetadata(t, id, JSON.stringify(meta), now());
      c = await repo.get(t, id) ?? c;
      const text = x.markdown || [c.selected_text, c.why].filter(Boolean).join('\n\n');
      const existing = await this.existingTags(t);
      const summarized = await step('summarize', () => summarizeStage(this.d, c, text, existing));
      const tags = await step('tag', () => tagStage(c, text, existing, summarized));
      const content = this.nodeContent(c, x, source);
      const nodeText = { title: c.title, summary: summarized.summary, body_markdown: content };
      const vector = await step('embed', () => embedStage(this.d, c, nodeText));
      // A long page's passages too, so the node is stored whole and its embedding job has nothing left to do.
      const passages = vector ? await this.passageVectors(nodeText) : undefined;
      await step('classify', () => classifyStage(this.d, c, vector));
      // The gist (title + summary) finds link candidates as well as the whole text, at a fraction of the embedding cost.
      await step('link', () => linkStage(this.d, c, `${c.title}\n${summarized.summary || text.slice(0, 600)}`));
      await this.finish(job, c.id, run, { title: c.title, content, summary: summarized.summary, tags }, x.markdown, meta, vector ? { text: embeddingText(nodeText), vector, passages } : null, source, images);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const retrying = isTransient(e) && job.attempts < CAPTURE_MAX_ATTEMPTS;
      if (!retrying) this.d.log.info(`capture ${id} failed at ${stage}: ${message}`);
      await tx.withTx(async () => {
        const cur = await repo.get(t, id);
        if (!live(cur)) {
          if (!retrying) await jobs.complete(job.id);
          return;
        }
        if (stage === 'fetch' && cur.url) await this.bookmark(cur, message, retrying);
        if (!retrying) return this.fail((await repo.get(t, id))!, message, stage, job.id);
        const delay = captureRetryDelayMs(job.attempts);
        await repo.setState(t, id, { ...moveTo(cur, 'pending'), attempts: cur.attempts, error: message, updated_at: now() });
        await repo.addEvent(t, id, 'retry_scheduled', now(), { stage, error: message, attempt: job.attempts, max_attempts: CAPTURE_MAX_ATTEMPTS, retry_in_ms: delay });
      });
      if (retrying) throw e; // the queue re-runs the job after captureRetryDelayMs
    }
  }

  /** A URL that could not be fetched still leaves a node at once: its bookmark (unless the capture has a node already). */
  private async bookmark(c: CaptureRow, reason: string, willRetry: boolean): Promise<void> {
    const { repo, nodes } = this.d;
    if (c.node_id && await nodes.exists(c.tenant_id, c.node_id)) return;
    const nodeId = await this.newNode(c, bookmarkNode(c, reason, willRetry, userTags(c)));
    const at = iso(this.d.clock.now());
    await repo.setNode(c.tenant_id, c.id, nodeId, at);
    await repo.addEvent(c.tenant_id, c.id, 'bookmarked', at, { node_id: nodeId, reason });
  }

  /**
   * The capture's node, made for the first time: it keeps the date the item was first saved
   * (an imported bookmark's), and the nodes that embed the captured file reference it.
   */
  private async newNode(c: CaptureRow, fields: { title: string; content: string; summary: string; tags: string[] }): Promise<string> {
    const origin = JSON.parse(c.metadata) as { original_created_at?: string };
    const id = (await this.d.nodes.create(c.tenant_id, fields, origin.original_created_at ? { created_at: origin.original_created_at } : undefined)).id;
    await this.linkFrom(c, id);
    return id;
  }

  /** The nodes that embed the captured file reference its node (a node gone meanwhile is skipped). */
  private async linkFrom(c: CaptureRow, nodeId: string): Promise<void> {
    const origin = JSON.parse(c.metadata) as { link_from?: string[] };
    for (const from of origin.link_from ?? []) await this.d.links?.add(c.tenant_id, from, nodeId, 'references');
  }

  /** The final write: node, capture, event and job deletion commit together or not at all. */
  private async finish(
    job: Job<CaptureJobPayload>, id: string, run: number, node: { title: string; content: string; summary: string; tags: string[] },
    markdown: string, meta: Record<string, unknown>, embedded: { text: string; vector: Float32Array; passages?: VectorWrite['passages'] } | null, source: Source,
    images: PageImagesFound,
  ): Promise<void> {
    const { repo, tx, jobs, nodes } = this.d;
    const t = job.tenantId;
    // The node's vector commits with the node when the embed stage already computed it:
    // one model call fewer per capture, and the node is semantically searchable at once.
    await tx.withTx(async () => {
      const cur = await repo.get(t, id);
      if (!cur || cur.attempts !== run || !['pending', 'processing'].includes(effectiveStatus(cur))) {
        await jobs.complete(job.id); // dismissed, deleted or superseded while we worked: drop the result
        return;
      }
      // The fetched page is kept as the capture's raw content (replaced on reingest).
      if (source.origin === 'url' && source.bytes.length) await repo.putFile(t, id, fetchedName(source.finalUrl), fetchedMime(source), source.bytes);
      if (source.origin === 'url') await repo.replaceImages(t, id, images.kept);
      const reuse = cur.node_id && await nodes.exists(t, cur.node_id);
      const nodeId = reuse ? (await nodes.update(t, cur.node_id!, node)).id : await this.newNode(cur, node);
      if (reuse) await this.linkFrom(cur, nodeId);
      const selected = cur.selected_text?.trim().slice(0, 10_000);
      if (selected) await this.d.highlights?.add(t, nodeId, { text: selected }, { source: 'capture', key: `capture:${id}` });
      const at = iso(this.d.clock.now());
      await repo.complete(t, id, { ...moveTo(cur, 'completed'), node_id: nodeId, markdown, metadata: JSON.stringify(meta), processed_at: at });
      await repo.addEvent(t, id, 'completed', at, { node_id: nodeId, run, node: reuse ? 'updated' : 'created' });
      await (this.d.events ?? noEvents).emit(t, 'capture.completed', { capture_id: id, node_id: nodeId, url: cur.url });
      if (source.origin === 'url' || (source.origin === 'raw_content' && source.kind === 'html')) await this.d.archive?.enqueueInTx(t, id);
      await jobs.complete(job.id);
      if (embedded) await this.d.vectors.storeNodeVectors(t, [{ nodeId, text: embedded.text, vector: embedded.vector, ...(embedded.passages ? { passages: embedded.passages } : {}) }], this.d.embedder.modelId);
    });
  }

  /** A long body's passage vectors (background priority); undefined when it has none or the model fails (its embedding job computes them). */
  private async passageVectors(node: { title: string; body_markdown: string }): Promise<VectorWrite['passages']> {
    const spans = embeddedPassages(node.body_markdown);
    if (spans.length === 0) return undefined;
    try {
      const vectors = await this.d.embedder.embed(spans.map((s) => passageEmbeddingText(node.title, node.body_markdown, s)));
      return { body: node.body_markdown, vectors: spans.map((s, i) => ({ start: s.start, end: s.end, vector: vectors[i] })) };
    } catch {
      return undefined;
    }
  }

  private async fail(c: CaptureRow, message: string, stage: string | null, jobId: number): Promise<void> {
    const at = iso(this.d.clock.now());
    await this.d.repo.setState(c.tenant_id, c.id, { ...moveTo(c, 'failed'), attempts: c.attempts, error: message, updated_at: at });
    await this.d.repo.addEvent(c.tenant_id, c.id, 'failed', at, { error: message, ...(stage ? { stage } : {}), run: c.attempts });
    await (this.d.events ?? noEvents).emit(c.tenant_id, 'capture.failed', { capture_id: c.id, error: message, stage, url: c.url });
    await this.d.jobs.complete(jobId);
  }

  private sourceFacts(src: Source): Record<string, unknown> {
    const facts: Record<string, unknown> = { detected_mime: src.mime };
    if (src.origin === 'url') {
      facts.final_url = src.finalUrl ?? null;
      facts.byte_size = src.declaredBytes ?? src.bytes.length;
    } else if (src.origin !== 'upload') facts.byte_size = src.bytes.length;
    return facts;
  }

  /** The node's body: the extracted document, then where it came from and why it was kept. */
  private nodeContent(c: CaptureRow, x: Extracted, src: Source): string {
    const parts = [x.markdown.slice(0, NODE_CONTENT_MAX - 12_000)];
    const footer: string[] = [];
    if (c.url) footer.push(`Source: <${c.url}>`);
    if (c.why && src.kind !== 'empty') footer.push(`Why I kept this: ${c.why.slice(0, 10_000)}`);
    if (footer.length) parts.push(`---\n\n${footer.join('\n\n')}`);
    return parts.filter(Boolean).join('\n\n');
  }

  /** The tenant's tag vocabulary, refreshed at most every 30 s (the scan is over all nodes). */
  private async existingTags(tenantId: string): Promise<string[]> {
    const hit = this.tagCache.get(tenantId);
    const now = this.d.clock.now();
    if (hit && now - hit.at < 30_000) return hit.tags;
    const tags = await this.d.repo.tenantTags(tenantId);
    if (this.tagCache.size > 1000) this.tagCache.clear();
    this.tagCache.set(tenantId, { at: now, tags });
    return tags;
  }
}
