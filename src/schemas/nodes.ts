import { z } from '@hono/zod-openapi';
import { NODE_STATUSES, SEARCH_MODES } from './enums.js';
export { NODE_STATUSES, SEARCH_MODES };
import { bodyInstant, pageQuery, Problem, queryBool, queryInstant } from './common.js';
import { queryTags } from './tags.js';
import { AnnotationMatch } from './highlights.js';

const tag = z.string().trim().min(1).max(100);
const tags = z.array(tag).max(100);
const paraIds = z.array(z.string().min(1).max(100)).max(50);

export const NodeCreate = z
  .strictObject({
    title: z.string().trim().min(1).max(500),
    content: z.string().max(500_000).default(''),
    summary: z.string().max(5_000).default(''),
    tags: tags.default([]),
    status: z.enum(NODE_STATUSES).default('raw'),
    para_item_ids: paraIds.default([]),
    created_at: bodyInstant.optional().openapi({ description: 'When the record was made, if not now (imports, agents recording past events); not in the future' }),
    occurred_at: bodyInstant.nullable().optional().openapi({ description: 'When what the node describes happened (ISO 8601 date or date-time, UTC)' }),
  })
  .openapi('NodeCreate');

export const NodePatch = z
  .strictObject({
    title: z.string().trim().min(1).max(500).optional(),
    content: z.string().max(500_000).optional(),
    summary: z.string().max(5_000).optional(),
    tags: tags.optional(),
    status: z.enum(NODE_STATUSES).optional(),
    para_item_ids: paraIds.optional(),
    occurred_at: bodyInstant.nullable().optional().openapi({ description: 'When what the node describes happened; null clears it' }),
  })
  .openapi('NodePatch');

export const MatchProvenance = z.object({ keyword: z.boolean(), semantic: z.boolean(), score: z.number() }).openapi('MatchProvenance');

/** How a node came to be in a PARA item: filed by the user, or by the classifier with its calibrated score. */
export const ParaAssignment = z
  .object({
    para_item_id: z.string(),
    source: z.enum(['user', 'auto']),
    score: z.number().nullable(),
    method: z.string().nullable(),
  })
  .openapi('ParaAssignment');

/** Where a search result matched the query's words (search/highlights.ts). */
export const Highlight = z
  .object({
    field: z.enum(['title', 'summary', 'body', 'tags']),
    snippet: z.string(),
    matches: z.array(z.tuple([z.number().int(), z.number().int()])),
  })
  .openapi('Highlight');

export const Node = z
  .object({
    id: z.string(),
    title: z.string(),
    summary: z.string(),
    body_markdown: z.string(),
    tags: z.array(z.string()),
    para_item_ids: z.array(z.string()),
    status: z.enum(NODE_STATUSES),
    match_provenance: MatchProvenance.optional(),
    highlights: z.array(Highlight).optional(),
    passage: z
      .object({ text: z.string(), start: z.number().int(), end: z.number().int() })
      .optional()
      .openapi({ description: "Search results: the passage of a long note that matched by meaning (offsets into body_markdown), when it is closer to the query than the note as a whole" }),
    annotation_matches: z.array(AnnotationMatch).optional().openapi({ description: "Search results: the node's highlights the query's words met (in their words or their note), most matched first" }),
    para_assignments: z.array(ParaAssignment).optional(),
    created_at: z.string(),
    updated_at: z.string(),
    occurred_at: z.string().nullable().openapi({ description: 'When what the node describes happened; null when not said' }),
    mentioned_dates: z.array(z.string()).openapi({ description: "Dates the node's text mentions ('YYYY-MM-DD', 'YYYY-MM' or 'YYYY'), read in the background after a write" }),
  })
  .openapi('Node');

export const NodeSearchQuery = z.object({
  query: z.string().max(500).optional(),
  mode: z.enum(SEARCH_MODES).default('hybrid'),
  para_item_id: z.string().min(1).max(100).optional(),
  status: z.enum(NODE_STATUSES).optional(),
  orphan: queryBool.optional(),
  tag: queryTags,
  updated_after: queryInstant.optional().openapi({ description: 'Only nodes last updated at or after this date (YYYY-MM-DD, UTC midnight) or ISO 8601 date-time' }),
  updated_before: queryInstant.optional().openapi({ description: 'Only nodes last updated before this date (YYYY-MM-DD, UTC midnight) or ISO 8601 date-time' }),
  occurred_after: queryInstant.optional().openapi({ description: "Only nodes whose date (occurred_at, else created_at) is at or after this date" }),
  occurred_before: queryInstant.optional().openapi({ description: "Only nodes whose date (occurred_at, else created_at) is before this date" }),
  ...pageQuery,
});

export const NodeSearchResult = z
  .object({
    data: z.array(Node),
    total: z.number().int(),
    total_matches: z.number().int().optional(),
    coverage_capped: z.boolean(),
    page: z.number().int(),
    per_page: z.number().int(),
  })
  .openapi('NodeSearchResult');

export type NodeCreateInput = z.input<typeof NodeCreate>;
export type NodePatchInput = z.infer<typeof NodePatch>;
export type NodeSearchParams = z.infer<typeof NodeSearchQuery>;
export type NodeDto = z.infer<typeof Node>;

/** At most this many nodes in one POST /nodes/batch. */
export const MAX_BATCH = 500;

export const NodeBatch = z
  .strictObject({
    nodes: z.array(z.unknown()).min(1).max(MAX_BATCH).openapi({ description: `1–${MAX_BATCH} node bodies as POST /nodes takes them; each is validated on its own` }),
  })
  .openapi('NodeBatch');

export const NodeBatchResult = z
  .object({
    results: z.array(z.union([Node, Problem])).openapi({ description: 'One per item, in order: the created node, or the problem that refused it (status, code, errors)' }),
    created: z.number().int(),
    failed: z.number().int(),
  })
  .openapi('NodeBatchResult');
