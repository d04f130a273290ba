// Highlights on a node: /nodes/{id}/highlights. Anchored as the W3C Web Annotation model
// anchors a passage: a TextQuoteSelector (the words, with context each side) and a
// TextPositionSelector (their offsets in the node's body_markdown, recomputed on each read).
import { z } from '@hono/zod-openapi';

export const HIGHLIGHT_COLORS = ['yellow', 'green', 'blue', 'pink', 'purple'] as const;

export const TextQuoteSelector = z
  .object({
    type: z.literal('TextQuoteSelector'),
    exact: z.string().min(1).max(10_000),
    prefix: z.string().max(500).default(''),
    suffix: z.string().max(500).default(''),
  })
  .openapi('TextQuoteSelector');

export const TextPositionSelector = z
  .object({ type: z.literal('TextPositionSelector'), start: z.number().int().min(0), end: z.number().int().min(0) })
  .openapi('TextPositionSelector');

export const HighlightSelector = z.discriminatedUnion('type', [TextQuoteSelector, TextPositionSelector]);

export const NodeHighlight = z
  .object({
    id: z.string(),
    node_id: z.string(),
    text: z.string(),
    note: z.string().nullable(),
    color: z.enum(HIGHLIGHT_COLORS),
    selectors: z.array(HighlightSelector),
    /** The highlighted words are no longer in the node's text (the position selector is then absent). */
    orphaned: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('NodeHighlight');

const note = z.string().max(10_000).nullable();

/** On a search hit and a context node: a highlight of the node the query's words met, in its words or its note (search/highlights.ts). */
export const AnnotationMatch = z
  .object({
    highlight_id: z.string().openapi({ description: 'The highlight (GET /nodes/{id}/highlights/{highlight_id}); the dashboard opens #/nodes/{id}/read?highlight={highlight_id}' }),
    text: z.string().openapi({ description: 'The highlighted words' }),
    note: z.string().nullable(),
    text_matches: z.array(z.tuple([z.number().int(), z.number().int()])).openapi({ description: '[start, end) offsets of the matched words in text' }),
    note_matches: z.array(z.tuple([z.number().int(), z.number().int()])).openapi({ description: '[start, end) offsets of the matched words in note' }),
  })
  .openapi('AnnotationMatch');

export const NodeHighlightCreate = z
  .strictObject({
    text: z.string().trim().min(1).max(10_000),
    note: note.optional(),
    color: z.enum(HIGHLIGHT_COLORS).default('yellow'),
    /** Optional: the quote's context and position as the client saw them (a page in the browser). */
    selectors: z.array(HighlightSelector).max(2).optional(),
  })
  .openapi('NodeHighlightCreate');

export const NodeHighlightPatch = z
  .strictObject({ note: note.optional(), color: z.enum(HIGHLIGHT_COLORS).optional() })
  .openapi('NodeHighlightPatch');

export const NodeHighlightList = z.object({ data: z.array(NodeHighlight) }).openapi('NodeHighlightList');

export const HighlightParams = z.object({
  id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' } }),
  highlight_id: z.string().min(1).max(100).openapi({ param: { name: 'highlight_id', in: 'path' } }),
});

export type HighlightDto = z.infer<typeof NodeHighlight>;
export type HighlightCreateInput = z.input<typeof NodeHighlightCreate>;
export type HighlightPatchInput = z.infer<typeof NodeHighlightPatch>;
export type HighlightColor = (typeof HIGHLIGHT_COLORS)[number];
