// What of a node is embedded. Title and summary lead because they carry the meaning most
// densely; the body is cut because sentence encoders degrade on long inputs and cost
// grows with length.
import { createHash } from 'node:crypto';

export const EMBED_MAX_CHARS = 2000;

export function embeddingText(n: { title: string; summary: string; body_markdown: string }): string {
  return [n.title, n.summary, n.body_markdown].filter((s) => s.trim()).join('\n').slice(0, EMBED_MAX_CHARS);
}

export function textHash(text: string): string {
  return createHash('sha1').update(text).digest('base64url');
}
