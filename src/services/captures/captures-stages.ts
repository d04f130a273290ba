// The seven pipeline stages as functions of a capture. Each returns what it produced and
// the model/algorithm (with version) that produced it; the pipeline records both.
import { isStorageError } from '../../db/storage-errors.js';
import type { Config } from '../../config.js';
import type { Embedder } from '../../embed/embedder.js';
import { extractSource, type Extracted, type Source } from '../../ingest/extract/index.js';
import type { PageFlavor } from '../../ingest/extract/html.js';
import { FetchError, safeFetch } from '../../ingest/fetch.js';
import { llmSummarizeAndTag, type LlmResult } from '../../ingest/llm.js';
import { detectContent, looksLikeHtml, looksLikeMarkdown, type DocKind } from '../../ingest/sniff.js';
import { extractiveSummary, SUMMARY_ALGORITHM } from '../../ingest/summarize.js';
import { keyphraseTags, normalizeTag, TAG_ALGORITHM } from '../../ingest/tags.js';
import { sentences } from '../../ingest/text-stats.js';
import type { CaptureRow, CapturesRepo } from '../../repos/captures.repo.js';
import type { KnnHit } from '../../vectors/vector-store.js';
import { embeddingText } from '../../search/embedding-text.js';
import type { ParaClassifier } from '../para/para-classify.service.js';
import { roundScore } from '../../search/score.js';
import { HostSpacing } from '../../ingest/host-spacing.js';

export interface StageResult<T> {
  value: T;
  model: string;
  output: Record<string, unknown>;
}

/** A failure no retry can fix (unsupported content, refused address, 404...). */
export class PermanentCaptureError extends Error {}

export interface StageDeps {
  config: Config;
  repo: CapturesRepo;
  embedder: Embedder;
  embedQuery(text: string): Promise<Float32Array | null>;
  knn(tenantId: string, v: Float32Array, k: number): Promise<KnnHit[]>;
  /** What PARA filing would decide for the capture's vector, when PARA is present. */
  para?: Pick<ParaClassifier, 'preview'>;
  /** Link suggestions for a text, when the graph service is present. */
  suggest?(tenantId: string, text: string, limit: number): Promise<Array<{ node_id: string; title: string; score: number }>>;
}

const FLAVOR: Record<string, PageFlavor> = { article: 'article', tweet: 'tweet', repo: 'repo', video: 'video', audio: 'audio' };
export const flavorOf = (c: CaptureRow): PageFlavor => FLAVOR[c.content_type] ?? 'other';

function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

function textKind(s: string, c: CaptureRow): DocKind {
  if (looksLikeHtml(s)) return 'html';
  return looksLikeMarkdown(s) || c.content_type === 'note' ? 'markdown' : 'text';
}

/** Re-encodes a fetched text body as UTF-8 when the server declared another charset. */
function toUtf8(bytes: Buffer, contentType: string): Uint8Array {
  const cs = contentType.match(/charset=["']?([\w-]+)/i)?.[1]?.toLowerCase();
  if (!cs || cs === 'utf-8' || cs === 'utf8') return bytes;
  try {
    return utf8(new TextDecoder(cs).decode(bytes));
  } catch {
    return bytes;
  }
}

/** One per process: the pipeline's fetches to one host are spaced (see ingest/host-spacing). */
const hostSpacing = new HostSpacing();

export async function fetchStage(d: StageDeps, c: CaptureRow): Promise<StageResult<Source>> {
  const meta = JSON.parse(c.metadata) as Record<string, unknown>;
  if (meta.origin === 'upload') {
    const f = await d.repo.getFile(c.tenant_id, c.id);
    if (!f) throw new PermanentCaptureError('the uploaded file is missing');
    const kind = (meta.detected_kind as DocKind) ?? 'text';
    return { value: { origin: 'upload', kind, mime: f.mime, bytes: new Uint8Array(f.bytes) }, model: 'stored-upload', output: { origin: 'upload', filename: f.filename, byte_size: f.bytes.length, mime: f.mime } };
  }
  if (c.raw_content) {
    const kind = textKind(c.raw_content, c);
    return { value: { origin: 'raw_content', kind, mime: kind === 'html' ? 'text/html' : 'text/plain', bytes: utf8(c.raw_content), finalUrl: c.url ?? undefined }, model: 'client-supplied-content', output: { origin: 'raw_content', kind, byte_size: Buffer.byteLength(c.raw_content) } };
  }
  const fetchesObject = c.content_type === 'image' || c.content_type === 'pdf';
  if (c.selected_text && !(c.url && fetchesObject)) {
    const kind = textKind(c.selected_text, c);
    return { value: { origin: 'selected_text', kind, mime: 'text/plain', bytes: utf8(c.selected_text) }, model: 'client-supplied-content', output: { origin: 'selected_text', kind, byte_size: Buffer.byteLength(c.selected_text) } };
  }
  if (!c.url) return { value: { origin: 'note', kind: 'empty', mime: 'text/plain', bytes: new Uint8Array() }, model: 'client-supplied-content', output: { origin: 'note', kind: 'empty' } };

  await hostSpacing.wait(c.url);
  const res = await safeFetch(c.url, {
    allowPrivate: d.config.allowPrivateFetch,
    headersOnly: (t) => t.startsWith('audio/') || t.startsWith('video/'),
  });
  const output = { origin: 'url', url: c.url, final_url: res.finalUrl, http_status: res.status, content_type: res.contentType || null, redirects: res.redirects, byte_size: res.bytes.length };
  const model = 'rhizome-safe-fetch@1';
  const media = res.contentType.match(/^(audio|video)\//)?.[1] as 'audio' | 'video' | undefined;
  if (media) return { value: { origin: 'url', kind: media, mime: res.contentType.split(';')[0], bytes: new Uint8Array(), finalUrl: res.finalUrl, declaredBytes: res.declaredBytes }, model, output: { ...output, byte_size: res.declaredBytes, body: 'not downloaded' } };
  // Text in a declared legacy charset becomes UTF-8 before sniffing (which expects UTF-8).
  const declaredText = /^(text\/|application\/(xhtml\+)?xml)/.test(res.contentType);
  const bytes = declaredText ? toUtf8(res.bytes, res.contentType) : new Uint8Array(res.bytes);
  const detected = await detectContent(bytes);
  if (!detected) throw new PermanentCaptureError(`the URL served content Rhizome cannot read (${res.contentType || 'unknown type'})`);
  const isText = detected.kind === 'html' || detected.kind === 'text' || detected.kind === 'markdown';
  const kind = isText && res.contentType.startsWith('text/html') ? 'html' : detected.kind;
  return { value: { origin: 'url', kind, mime: detected.mime, bytes, finalUrl: res.finalUrl }, model, output: { ...output, detected_mime: detected.mime } };
}

export async function extractStage(c: CaptureRow, src: Source): Promise<StageResult<Extracted>> {
  const x = await extractSource(src, { flavor: flavorOf(c), url: c.url ?? undefined, user: { selectedText: c.selected_text, why: c.why } });
  const output = { title: x.title ?? null, chars: x.markdown.length, ...x.metadata, preview: x.markdown.slice(0, 300) };
  return { value: x, model: x.extractor, output };
}

export interface Summarized {
  summary: string;
  llm?: LlmResult;
}

export async function summarizeStage(d: StageDeps, c: CaptureRow, text: string, existingTags: string[]): Promise<StageResult<Summarized>> {
  let llmError: string | undefined;
  if (d.config.llmUrl) {
    try {
      const llm = await llmSummarizeAndTag({ url: d.config.llmUrl, model: d.config.llmModel }, { title: c.title, text, existingTags });
      return { value: { summary: llm.summary, llm }, model: `llm:${llm.model}`, output: { summary: llm.summary, endpoint: new URL(d.config.llmUrl).host } };
    } catch (e) {
      llmError = e instanceof Error ? e.message : String(e);
    }
  }
  const fallback = llmError ? { llm_error: `${llmError}; used the local summarizer` } : {};
  if (!text.trim()) {
    const summary = (c.why ?? '').slice(0, 600);
    return { value: { summary }, model: 'user-text@1', output: { summary, note: 'no extracted text; the reason for capturing stands in', ...fallback } };
  }
  try {
    const r = await extractiveSummary(text, d.embedder);
    return { value: { summary: r.summary }, model: `${SUMMARY_ALGORITHM}+${d.embedder.modelId}`, output: { summary: r.summary, sentences_considered: r.sentences_considered, picked: r.picked, ...fallback } };
  } catch (e) {
    // The embedding model is unavailable: the lead sentences are the honest fallback.
    const summary = sentences(text).slice(0, 2).join(' ').slice(0, 600);
    return { value: { summary }, model: 'lead-2@1', output: { summary, embedder_error: e instanceof Error ? e.message : String(e), ...fallback } };
  }
}

/** The tags the user gave the capture (normalised at intake). */
export function userTags(c: CaptureRow): string[] {
  const t = (JSON.parse(c.metadata) as { user_tags?: unknown }).user_tags;
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

export function tagStage(c: CaptureRow, text: string, existing: string[], s: Summarized): StageResult<string[]> {
  const mine = userTags(c);
  const withMine = (generated: string[]) => [...new Set([...mine, ...generated])];
  if (s.llm) {
    const tags = [...new Set(s.llm.tags.map(normalizeTag).filter(Boolean))].slice(0, 5);
    return { value: withMine(tags), model: `llm:${s.llm.model}`, output: { tags: withMine(tags), user_tags: mine, reused: tags.filter((t) => existing.includes(t)) } };
  }
  const r = keyphraseTags({ title: c.title, text, existing });
  return { value: withMine(r.tags), model: TAG_ALGORITHM, output: { tags: withMine(r.tags), user_tags: mine, reused: r.reused, vocabulary_size: existing.length } };
}

export async function embedStage(d: StageDeps, c: CaptureRow, node: { title: string; summary: string; body_markdown: string }): Promise<StageResult<Float32Array | null>> {
  const text = embeddingText(node);
  const v = await d.embedQuery(text);
  if (!v) return { value: null, model: d.embedder.modelId || 'unavailable', output: { error: 'the embedding model is unavailable; the node is embedded when it loads', chars: text.length } };
  const nearest = (await d.knn(c.tenant_id, v, 6))
    .filter((h) => h.id !== c.node_id)
    .slice(0, 5)
    .map((h) => ({ node_id: h.id, similarity: roundScore(1 - h.distance) }));
  return {
    value: v,
    model: d.embedder.modelId,
    output: { dimension: v.length, chars: text.length, nearest, stored: 'as the node\'s vector, with the node' },
  };
}

export async function classifyStage(d: StageDeps, c: CaptureRow, v: Float32Array | null): Promise<StageResult<null>> {
  if (!d.para) return { value: null, model: 'none', output: { note: 'PARA is not available' } };
  const deferred = 'the PARA classifier assigns the node once its vector is stored (it also weighs the items\' existing nodes)';
  if (!v) return { value: null, model: `para-scoring+${d.embedder.modelId || 'unavailable'}`, output: { decision: null, note: deferred } };
  const p = await d.para.preview(c.tenant_id, v);
  return { value: null, model: p.model, output: { active_items: p.active_items, decision: p.decision, candidates: p.candidates, note: deferred } };
}

export async function linkStage(d: StageDeps, c: CaptureRow, text: string): Promise<StageResult<null>> {
  if (!d.suggest) return { value: null, model: 'none', output: { note: 'link suggestions are not available' } };
  const found = (await d.suggest(c.tenant_id, text.slice(0, 10_000), 6)).filter((x) => x.node_id !== c.node_id).slice(0, 5);
  return { value: null, model: 'link-suggestions (0.55 semantic + 0.45 keyword)', output: { suggestions: found, note: 'suggested, not linked: links are the user\'s call' } };
}

export function isTransient(e: unknown): boolean {
  // A full disk or I/O error is the machine's, not the capture's: retried, never `failed`.
  return (e instanceof FetchError && e.transient) || isStorageError(e);
}
