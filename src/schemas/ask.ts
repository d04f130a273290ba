// POST /ask: a question answered from the tenant's notes, each sentence with its citation.
import { z } from '@hono/zod-openapi';
import { bodyInstant } from './common.js';

export const ASK_MODES = ['extractive', 'generative'] as const;

export const AskFilters = z
  .strictObject({
    para_item_id: z.string().min(1).max(100).optional().openapi({ description: 'Only notes filed in this PARA item' }),
    tags: z.array(z.string().trim().min(1).max(100)).max(20).optional().openapi({ description: 'Only notes carrying every one of these tags' }),
    occurred_after: bodyInstant.optional().openapi({ description: 'Only notes whose date (occurred_at, else created_at) is at or after this' }),
    occurred_before: bodyInstant.optional().openapi({ description: 'Only notes whose date is before this' }),
  })
  .openapi('AskFilters');

export const AskRequest = z
  .strictObject({
    question: z.string().max(2000).refine((q) => q.trim().length > 0, 'question must not be empty'),
    filters: AskFilters.optional(),
    mode: z.enum(ASK_MODES).optional().openapi({ description: 'extractive: never ask a model, even when one is configured. Default: generative when RHIZOME_LLM_URL is set, else extractive' }),
  })
  .openapi('AskRequest');

export const AskCitation = z
  .object({
    node_id: z.string(),
    title: z.string(),
    passage: z.string().openapi({ description: 'The cited passage (about a paragraph) as the note says it' }),
    start: z.number().int().openapi({ description: 'Offset of the passage in the field, inclusive' }),
    end: z.number().int().openapi({ description: 'Offset of the passage in the field, exclusive' }),
    field: z.enum(['body', 'summary', 'title']).openapi({ description: "Which of the node's texts the offsets are in (body = body_markdown)" }),
    score: z.number().openapi({ description: 'How well the passage answers, in [0, 1]' }),
    highlights: z
      .array(z.object({ id: z.string(), text: z.string(), note: z.string().nullable() }))
      .optional()
      .openapi({ description: "The owner's highlights in the cited passage, with their notes (what the reader marked there)" }),
  })
  .openapi('AskCitation');

export const AskSentence = z
  .object({
    text: z.string(),
    citation: z.number().int().openapi({ description: 'Its citation, 1-based (the [n] after it in answer)' }),
    start: z.number().int().openapi({ description: "The sentence's own offsets in the cited field" }),
    end: z.number().int(),
  })
  .openapi('AskSentence');

export const MaybeRelated = z.object({ node_id: z.string(), title: z.string(), score: z.number() }).openapi('AskMaybeRelated');

export const AskResult = z
  .object({
    answer: z.string().openapi({ description: "The answer; every sentence ends with its citation [n]. \"Your notes don't say.\" when abstained" }),
    citations: z.array(AskCitation).openapi({ description: 'Numbered from 1 as the answer cites them (generative: the passages the model was given, in order)' }),
    mode: z.enum(ASK_MODES),
    abstained: z.boolean().openapi({ description: 'Nothing in the notes answers: no citations, and maybe_related lists the nearest notes' }),
    sentences: z.array(AskSentence).openapi({ description: 'Extractive: the quoted sentences with their offsets (empty for a generative answer)' }),
    maybe_related: z.array(MaybeRelated).openapi({ description: 'Abstained: the nearest notes, offered to read, never as an answer' }),
    notice: z.string().optional().openapi({ description: "Why a model's answer was replaced by the extractive one (a citation it was not given, an error, a timeout, the budget)" }),
  })
  .openapi('AskResult');

export type AskRequestBody = z.infer<typeof AskRequest>;
export type AskResultDto = z.infer<typeof AskResult>;
