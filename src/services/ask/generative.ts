// The generative answer: the retrieved passages, numbered, sent to the configured model; its
// answer streamed back and then checked. Every [n] must be a passage it was given, and it must
// cite at least one; otherwise, or when the endpoint fails, times out, cuts its stream or the
// tenant's token budget is spent, the caller falls back to the extractive answer with a notice.
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { checkCitations } from '../../schemas/citation-markers.js';
import { citationOf, type Citation } from '../../search/answer/citations.js';
import type { AnswerSource, Extraction } from '../../search/answer/extract.js';
import { ANSWER_TOKENS, chatMessages, estimateTokens, fitPassages } from '../../search/answer/prompt.js';
import { LlmError, streamChat, type LlmEndpoint } from './llm-chat.js';

/** The passages a model is given: each answering note's best passage, best first. */
export function promptCitations(ex: Extraction, sources: AnswerSource[]): Citation[] {
  const picks = ex.best
    .map((b, i) => (b && ex.answers[i] ? b : null))
    .filter((b) => b !== null)
    .sort((a, b) => b.score - a.score || a.source - b.source);
  const fitted = fitPassages(picks.map((b) => ({ title: sources[b.source].title, text: sources[b.source].text.slice(b.passage.start, b.passage.end) })));
  return fitted.map((p, i) => ({ ...citationOf(sources[picks[i].source], picks[i].passage, picks[i].score), passage: p.text, end: picks[i].passage.start + p.text.length }));
}

export type Outcome = { ok: true; answer: string } | { ok: false; notice: string };

export interface GenerativeDeps {
  endpoint: LlmEndpoint;
  /** Tokens per tenant per period (null: no budget). */
  tokens: RateLimiterAbstract | null;
}

/**
 * Streams the model's answer through `emit` and returns it checked, or why it was refused.
 * The tenant's budget is charged the prompt and the most the answer may take, up front.
 */
export async function generate(d: GenerativeDeps, tenantId: string, question: string, given: Citation[], emit: (text: string) => void, signal?: AbortSignal): Promise<Outcome> {
  const messages = chatMessages(question, given.map((c) => ({ title: c.title, text: c.passage })));
  const cost = messages.reduce((a, m) => a + estimateTokens(m.content), 0) + ANSWER_TOKENS;
  if (d.tokens) {
    try {
      await d.tokens.consume(`tenant:${tenantId}`, cost);
    } catch (e) {
      if (e instanceof Error) throw e;
      return { ok: false, notice: "This tenant has used its model budget for now; here is the extractive answer." };
    }
  }
  let answer = '';
  try {
    for await (const piece of streamChat(d.endpoint, messages, ANSWER_TOKENS, signal)) {
      answer += piece;
      emit(piece);
      if (answer.length > ANSWER_TOKENS * 8) throw new LlmError('bad_response', 'the model went on past its token budget');
    }
  } catch (e) {
    if (!(e instanceof LlmError)) throw e;
    return { ok: false, notice: `The model's answer could not be used (${e.message}); here is the extractive answer.` };
  }
  const check = checkCitations(answer, given.length);
  if (!check.ok) {
    const why = check.reason === 'cites_nothing' ? 'cited none of your notes' : `cited a passage it was not given (${check.cited.filter((n) => n < 1 || n > given.length).map((n) => `[${n}]`).join(', ')})`;
    return { ok: false, notice: `The model's answer ${why}; here is the extractive answer.` };
  }
  return { ok: true, answer: answer.trim() };
}
