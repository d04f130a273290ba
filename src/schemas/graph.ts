// Request and response shapes for links, related nodes, link suggestions, session context
// and graph health (http, mcp and cli share them).
import { z } from '@hono/zod-openapi';
import { LINK_TYPES } from './enums.js';
import { bodyInstant } from './common.js';
import { AnnotationMatch } from './highlights.js';
export { LINK_TYPES };

export type LinkType = (typeof LINK_TYPES)[number];

/** The type the reverse row carries. */
export const INVERSE_LINK_TYPE: Record<LinkType, LinkType> = {
  related: 'related',
  references: 'referenced_by',
  referenced_by: 'references',
  supports: 'supported_by',
  supported_by: 'supports',
  contradicts: 'contradicts',
  part_of: 'has_part',
  has_part: 'part_of',
  derived_from: 'source_of',
  source_of: 'derived_from',
};

export const MAX_LINKS_PER_NODE = 1000;

export const Link = z
  .strictObject({
    target_id: z.string().min(1).max(100),
    type: z.enum(LINK_TYPES),
  })
  .openapi('Link');

export const LinksReplace = z
  .strictObject({ links: z.array(Link).max(MAX_LINKS_PER_NODE) })
  .openapi('LinksReplace');

export const LinkList = z
  .object({ links: z.array(z.object({ target_id: z.string(), type: z.enum(LINK_TYPES) })) })
  .openapi('LinkList');

export const RelatedQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const RelatedNode = z
  .object({ id: z.string(), title: z.string(), summary: z.string(), relationship_type: z.enum(LINK_TYPES) })
  .openapi('RelatedNode');
export const RelatedList = z.object({ nodes: z.array(RelatedNode) }).openapi('RelatedList');

export const SuggestionsQuery = z.object({
  text: z.string().max(10_000).refine((t) => t.trim().length > 0, 'text must not be empty'),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

export const LinkSuggestion = z
  .object({ node_id: z.string(), title: z.string(), score: z.number() })
  .openapi('LinkSuggestion');
export const SuggestionList = z.object({ suggestions: z.array(LinkSuggestion) }).openapi('LinkSuggestionList');

export const CONTEXT_MODES = ['keyword', 'semantic', 'hybrid'] as const;
export type ContextMode = (typeof CONTEXT_MODES)[number];

export const ContextRequest = z
  .strictObject({
    focus_node_ids: z.array(z.string().min(1).max(100)).max(100).optional(),
    mode: z.enum(CONTEXT_MODES).default('hybrid'),
    query: z.string().max(2000).optional(),
    limit: z.number().int().min(1).max(100).default(20),
    occurred_after: bodyInstant.optional().openapi({ description: "Nodes whose date (occurred_at, else created_at) is at or after this come first" }),
    occurred_before: bodyInstant.optional().openapi({ description: 'Nodes whose date is before this come first' }),
    tags: z.array(z.string().trim().min(1).max(100)).max(20).optional().openapi({ description: 'Only nodes carrying every one of these tags (a session, a source)' }),
  })
  .openapi('ContextRequest');

export const ContextPassage = z
  .object({
    text: z.string(),
    start: z.number().int().openapi({ description: 'Offset of the passage in the field, inclusive' }),
    end: z.number().int().openapi({ description: 'Offset of the passage in the field, exclusive' }),
    field: z.enum(['body', 'summary', 'title']).openapi({ description: "Which of the node's texts the offsets are in (body = body_markdown)" }),
  })
  .openapi('ContextPassage');

export const ContextNode = z
  .object({
    id: z.string(),
    title: z.string(),
    summary: z.string(),
    score: z.number(),
    reasons: z.array(z.string()),
    passages: z.array(ContextPassage).openapi({ description: 'The passages that matched the query, best first (the opening one without a query)' }),
    highlights: z.array(z.object({ id: z.string(), text: z.string(), note: z.string().nullable() })).openapi({ description: "What the owner highlighted in the node, with their notes (GET /nodes/{id}/highlights has the anchors)" }),
    annotation_matches: z.array(AnnotationMatch).optional().openapi({ description: "With a query: the node's highlights the query's words met (in their words or their note), most matched first" }),
    tags: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
    occurred_at: z.string().nullable(),
  })
  .openapi('ContextNode');
export const ContextResult = z.object({ nodes: z.array(ContextNode) }).openapi('ContextResult');

export const GraphHealth = z
  .object({
    total_nodes: z.number().int(),
    validated_nodes: z.number().int(),
    total_captures: z.number().int(),
    pending_captures: z.number().int(),
    total_links: z.number().int(),
    stale_nodes: z.number().int(),
  })
  .openapi('GraphHealth');
