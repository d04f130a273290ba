// What of a node is embedded. Title and summary lead because they carry the meaning most
// densely; the body is cut because sentence encoders degrade on long inputs and cost
// grows with length.
import { createHash } from 'node:crypto';
import { embeddedPassages, type Span } from './passages.js';

export const EMBED_MAX_CHARS = 2000;

export function embeddingText(n: { title: string; summary: string; body_markdown: string }): string {
  return [n.title, n.summary, n.body_markdown].filter((s) => s.trim()).join('\n').slice(0, EMBED_MAX_CHARS);
}

export function textHash(text: string): string {
  return createHash('sha1').update(text).digest('base64url');
}

/**
 * What a passage's vector is computed from: the note's title (its context: "the second
 * paragraph of *Compost heap*") and the passage's own words.
 */
export function passageEmbeddingText(title: string, body: string, span: Span): string {
  return [title, body.slice(span.start, span.end)].filter((s) => s.trim()).join('\n');
}

/**
 * A node's embedding key: what its vectors were computed from, hashed. The node's own vector
 * and, for a long body, its passages' (which read the whole body): a change anywhere in the
 * body of a long note re-embeds it. Recorded as the node's embedded_hash once stored.
 */
export function embeddingKey(n: { title: string; summary: string; body_markdown: string }): string {
  const text = embeddingText(n);
  return embeddedPassages(n.body_markdown).length ? textHash(`${text}\u0000${n.title}\u0000${n.body_markdown}`) : textHash(text);
}
