// Every tool answers with readable text for the model AND structuredContent for programs.
// Failures (API errors, unreachable server, bad arguments) come back as isError results.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RhizomeApiError } from '../client/errors.js';
import type { ContextNode, Node } from '../client/types.js';
import { excerpt } from './markdown.js';

export function ok(text: string, data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

export function fail(e: unknown): CallToolResult {
  if (e instanceof RhizomeApiError) {
    return {
      content: [{ type: 'text', text: `Error ${e.status} (${e.code}): ${e.describe()}` }],
      structuredContent: { error: { status: e.status, code: e.code, detail: e.detail, errors: e.errors } },
      isError: true,
    };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { content: [{ type: 'text', text: `Error: ${message}` }], structuredContent: { error: { code: 'client_error', detail: message } }, isError: true };
}

/** Runs a tool body; whatever it throws becomes a tool error, never a protocol crash. */
export async function guard(fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await fn();
  } catch (e) {
    return fail(e);
  }
}

/** A highlight with its matched words in **bold**, on one line. */
export function markSnippet(h: { snippet: string; matches: [number, number][] }): string {
  let out = '';
  let at = 0;
  for (const [a, b] of h.matches) {
    out += `${h.snippet.slice(at, a)}**${h.snippet.slice(a, b)}**`;
    at = b;
  }
  return (out + h.snippet.slice(at)).replace(/\s+/g, ' ');
}

export function nodeLine(n: Pick<Node, 'id' | 'title'> & Partial<Node>, i?: number): string {
  const head = `${i !== undefined ? `${i + 1}. ` : '- '}${n.title} [${n.id}]`;
  const meta = [n.status, n.tags?.length ? `tags: ${n.tags.join(', ')}` : '', n.match_provenance ? `score ${n.match_provenance.score.toFixed(3)}` : '']
    .filter(Boolean)
    .join('; ');
  const text = excerpt(n);
  const summary = text ? `\n   ${text}` : '';
  const h = n.highlights?.[0];
  const snippet = h ? `\n   matched in ${h.field}: ${markSnippet(h)}` : '';
  return `${head}${meta ? ` (${meta})` : ''}${summary}${snippet}`;
}

export function nodeText(n: Node): string {
  return [
    `# ${n.title}`,
    `id: ${n.id} | status: ${n.status} | updated: ${n.updated_at}`,
    `tags: ${n.tags.join(', ') || '(none)'} | PARA: ${n.para_item_ids.join(', ') || '(orphan)'}`,
    n.summary ? `\nSummary: ${n.summary}` : '',
    n.body_markdown ? `\n${n.body_markdown}` : '',
  ]
    .filter((l) => l !== '')
    .join('\n');
}

/** A context node for the model: title, id, date, why, and the passages that matched (quoted). */
export function contextLine(n: ContextNode, i: number): string {
  const date = (n.occurred_at ?? n.created_at).slice(0, 10);
  const passages = [
    ...n.passages.map((p) => `   > ${p.text.replace(/\s+/g, ' ').trim()}`),
    ...(n.highlights ?? []).map((h) => `   ★ ${h.text.replace(/\s+/g, ' ').trim()}${h.note ? ` — ${h.note}` : ''}`),
  ].join('\n');
  return `${i + 1}. ${n.title} [${n.id}] ${date} (score ${n.score.toFixed(3)}; ${n.reasons.join(', ')})${passages ? `\n${passages}` : ''}`;
}
