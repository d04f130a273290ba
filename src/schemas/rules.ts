// Rules: POST /rules {name, when, then, order?} → 201; GET/PATCH/DELETE /rules/{id};
// POST /rules/{id}/dry-run (what it would change on existing nodes) and /run (the same,
// done); GET /rules/{id}/log; POST /rules/{id}/log/{action_id}/undo.
import { z } from '@hono/zod-openapi';
import { CAPTURE_CONTENT_TYPES, NODE_STATUSES } from './enums.js';

const word = z.string().trim().min(1).max(100);

export const RuleWhen = z
  .strictObject({
    feed_id: z.string().min(1).max(100).optional().openapi({ description: 'items of this feed' }),
    host: z.string().trim().toLowerCase().min(1).max(253).optional().openapi({ description: 'URL host, or a subdomain of it' }),
    url_pattern: z.string().trim().min(1).max(2000).optional().openapi({ description: 'the whole URL, * matching any run of characters (case-insensitive)' }),
    title_words: z.array(word).min(1).max(20).optional().openapi({ description: 'every word appears in the title (whole words, any case)' }),
    tag: word.optional(),
    content_type: z.enum(CAPTURE_CONTENT_TYPES).optional(),
  })
  .refine((w) => Object.keys(w).length > 0, { message: 'give at least one condition' })
  .openapi('RuleWhen');

export const RuleThen = z
  .strictObject({
    add_tags: z.array(word).min(1).max(20).optional(),
    para_item_id: z.string().min(1).max(100).optional().openapi({ description: 'file the node in this PARA item' }),
    status: z.enum(NODE_STATUSES).optional(),
    skip: z.literal(true).optional().openapi({ description: 'a feed item is not captured; a capture or note is dismissed. Later rules do not run.' }),
  })
  .refine((t) => Object.keys(t).length > 0, { message: 'give at least one action' })
  .openapi('RuleThen');

export const RuleCreate = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    when: RuleWhen,
    then: RuleThen,
    order: z.number().int().min(0).max(1_000_000).optional().openapi({ description: 'rules apply in ascending order (default: after the others)' }),
  })
  .openapi('RuleCreate');

export const RulePatch = z
  .strictObject({ name: z.string().trim().min(1).max(200).optional(), when: RuleWhen.optional(), then: RuleThen.optional(), order: z.number().int().min(0).max(1_000_000).optional() })
  .openapi('RulePatch');

export const Rule = z
  .object({ id: z.string(), name: z.string(), when: z.record(z.string(), z.unknown()), then: z.record(z.string(), z.unknown()), order: z.number().int(), created_at: z.string() })
  .openapi('Rule');
export const RuleList = z.object({ data: z.array(Rule) }).openapi('RuleList');

export const RuleAction = z
  .object({ type: z.enum(['add_tags', 'file_para', 'set_status', 'skip']), tags: z.array(z.string()).optional(), para_item_id: z.string().optional(), from: z.string().optional(), to: z.string().optional() })
  .openapi('RuleAction');

export const RuleChange = z.object({ node_id: z.string(), title: z.string(), actions: z.array(RuleAction) }).openapi('RuleChange');
export const RuleRunResult = z.object({ rule_id: z.string(), dry_run: z.boolean(), matched: z.number().int(), changes: z.array(RuleChange) }).openapi('RuleRunResult');

export const RuleLogEntry = z
  .object({
    id: z.string(), rule_id: z.string(), node_id: z.string().nullable(), kind: z.string(), detail: z.record(z.string(), z.unknown()),
    source: z.enum(['capture', 'feed_item', 'import', 'run']), created_at: z.string(), undone_at: z.string().nullable(),
  })
  .openapi('RuleLogEntry');
export const RuleLog = z.object({ data: z.array(RuleLogEntry) }).openapi('RuleLog');

export const RuleActionParams = z.object({
  id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' } }),
  action_id: z.string().min(1).max(100).openapi({ param: { name: 'action_id', in: 'path' } }),
});

export type RuleWhenInput = z.infer<typeof RuleWhen>;
export type RuleThenInput = z.infer<typeof RuleThen>;
export type RuleActionDto = z.infer<typeof RuleAction>;
