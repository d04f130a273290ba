// POST /ask: a question answered from the tenant's notes, every sentence with the passage it
// came from. Extractive by default and fully offline: the sentences that answer, chosen from
// the notes search ranks first (search/answer/extract.ts). With a model configured
// (RHIZOME_LLM_URL) the model writes the answer from the numbered passages, and its answer
// is kept only if its citations check out (generative.ts). When nothing retrieved answers,
// the notes "don't say", and the nearest notes are offered as maybe related.
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Clock } from '../../clock.js';
import type { ContextRepo } from '../../repos/context.repo.js';
import type { AskRequestBody, AskResultDto } from '../../schemas/ask.js';
import { citeSentences } from '../../search/answer/citations.js';
import { extractAnswer } from '../../search/answer/extract.js';
import { DONT_SAY, type AskEvent } from './ask-events.js';
import { generate, promptCitations } from './generative.js';
import type { LlmEndpoint } from './llm-chat.js';
import { maybeRelated, retrieve, type Ranker } from './retrieve.js';

export interface AskDeps {
  search: Ranker;
  repo: ContextRepo;
  /** The configured model, or null: answers never leave the machine. */
  llm: LlmEndpoint | null;
  /** The tenant's model token budget (null: none). */
  llmTokens: RateLimiterAbstract | null;
  /** "Last May" is read against it. */
  clock: Clock;
  /** The owner's highlights, re-anchored (services/highlights): cited passages carry those inside them. */
  highlights?: { highlightsFor(tenantId: string, nodeIds: string[]): Promise<Map<string, Array<{ id: string; text: string; note: string | null; orphaned?: boolean }>>> };
}

type Citation = AskResultDto['citations'][number];

export class AskService {
  constructor(private readonly d: AskDeps) {}

  /** Whether a model is configured (the dashboard says which kind of answer to expect). */
  get generativeAvailable(): boolean {
    return this.d.llm !== null;
  }

  async ask(tenantId: string, req: AskRequestBody, signal?: AbortSignal): Promise<AskResultDto> {
    let result: AskResultDto | undefined;
    for await (const e of this.stream(tenantId, req, signal)) if (e.type === 'done') result = e.result;
    return result!;
  }

  /** Each cited passage with the owner's highlights inside it (and their notes): what the reader marked there. */
  private async withHighlights<C extends Citation>(tenantId: string, citations: C[]): Promise<C[]> {
    if (!this.d.highlights || citations.length === 0) return citations;
    const marked = await this.d.highlights.highlightsFor(tenantId, [...new Set(citations.map((c) => c.node_id))]);
    const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
    return citations.map((c) => {
      const passage = flat(c.passage);
      const inside = (marked.get(c.node_id) ?? []).filter((h) => !h.orphaned && flat(h.text) && passage.includes(flat(h.text)));
      return inside.length ? { ...c, highlights: inside.map((h) => ({ id: h.id, text: h.text, note: h.note ?? null })) } : c;
    });
  }

  async *stream(tenantId: string, req: AskRequestBody, signal?: AbortSignal): AsyncGenerator<AskEvent> {
    const question = req.question.trim();
    const filter = req.filters ?? {};
    const retrieved = await retrieve(this.d.search, this.d.repo, tenantId, question, filter, new Date(this.d.clock.now()));
    const { sources } = retrieved;
    // A period said in the question chose the notes; its words ("2022", "last May") are no
    // words a sentence must say to answer.
    const words = retrieved.undated || question;
    const ex = extractAnswer(words, sources, { rarity: await this.d.search.termRarity(tenantId, words) });

    if (ex.sentences.length === 0) {
      const related = await maybeRelated(this.d.search, this.d.repo, tenantId, question, filter, retrieved);
      yield { type: 'citations', mode: 'extractive', citations: [] };
      yield { type: 'delta', text: DONT_SAY };
      yield { type: 'done', result: { answer: DONT_SAY, citations: [], mode: 'extractive', abstained: true, sentences: [], maybe_related: related } };
      return;
    }
    const extractive = citeSentences(ex.sentences, sources);
    let notice: string | undefined;

    if (req.mode !== 'extractive' && this.d.llm) {
      const given = await this.withHighlights(tenantId, promptCitations(ex, sources));
      yield { type: 'citations', mode: 'generative', citations: given };
      // The model's pieces are passed on as they come.
      const pieces: string[] = [];
      let wake: (() => void) | null = null;
      let finished = false;
      const done = generate({ endpoint: this.d.llm, tokens: this.d.llmTokens }, tenantId, question, given, (t) => {
        pieces.push(t);
        wake?.();
      }, signal).finally(() => {
        finished = true;
        wake?.();
      });
      done.catch(() => {}); // awaited below; a reader gone early must not leave it unhandled
      for (;;) {
        while (pieces.length) yield { type: 'delta', text: pieces.shift()! };
        if (finished) break;
        await new Promise<void>((r) => (wake = r));
        wake = null;
      }
      const outcome = await done;
      if (outcome.ok) {
        yield { type: 'done', result: { answer: outcome.answer, citations: given, mode: 'generative', abstained: false, sentences: [], maybe_related: [] } };
        return;
      }
      notice = outcome.notice;
      yield { type: 'fallback', notice };
    } else if (req.mode === 'generative') {
      notice = 'No model is configured (RHIZOME_LLM_URL); here is the extractive answer.';
    }

    extractive.citations = await this.withHighlights(tenantId, extractive.citations);
    yield { type: 'citations', mode: 'extractive', citations: extractive.citations };
    for (const [i, s] of extractive.sentences.entries()) yield { type: 'delta', text: `${i ? ' ' : ''}${s.text} [${s.citation}]` };
    yield { type: 'done', result: { answer: extractive.answer, citations: extractive.citations, mode: 'extractive', abstained: false, sentences: extractive.sentences, maybe_related: [], ...(notice ? { notice } : {}) } };
  }
}
