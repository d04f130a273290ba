// The ask service from the configuration: the model endpoint only when RHIZOME_LLM_URL is set
// (nothing leaves the machine otherwise), and the per-tenant token budget.
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { ContextRepo } from '../../repos/context.repo.js';
import type { Limiters } from '../../repos/limiters.js';
import { AskService, type AskDeps } from './ask.service.js';
import type { Ranker } from './retrieve.js';

/** A pause in the model's stream longer than this (or the whole timeout, if shorter) ends it. */
const IDLE_MS = 30_000;
const BUDGET_PERIOD_S = 3600;

export function buildAsk(o: { config: Config; search: Ranker; repo: ContextRepo; limiters: Limiters; clock: Clock; highlights?: AskDeps['highlights'] }): AskService {
  const c = o.config;
  const llm = c.llmUrl
    ? { url: c.llmUrl, model: c.llmModel, key: c.llmKey, allowPrivate: c.allowPrivateFetch, timeoutMs: c.llmTimeoutMs, idleMs: Math.min(IDLE_MS, c.llmTimeoutMs) }
    : null;
  const llmTokens = llm && c.llmTokenBudget > 0 ? o.limiters.create('llm-tokens', c.llmTokenBudget, BUDGET_PERIOD_S) : null;
  return new AskService({ search: o.search, repo: o.repo, llm, llmTokens, clock: o.clock, highlights: o.highlights });
}
