// Agent memory over MCP: `remember` writes what an agent learned (dated when it happened,
// grouped by session and source, linked to what it is about) and `recall` reads it back as
// passages with citations. Both are thin faces over POST /nodes/batch, /nodes/{id}/links and
// POST /context; a session or a source is a tag (`session:<id>`, `source:<name>`), so the
// dashboard, search and export see them as any other tag.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RhizomeClient } from '../../client/client.js';
import { LINK_TYPES, type NodeInput } from '../../client/types.js';
import { guard, ok } from '../result.js';

const date = z.string().max(40).describe('YYYY-MM-DD or an ISO 8601 date-time');
const tag = z.string().trim().min(1).max(100);

const Memory = {
  text: z.string().min(1).max(100_000).describe('what to remember, in full'),
  title: z.string().trim().min(1).max(500).optional().describe('a short title (default: the first line of the text)'),
  occurred_at: date.optional().describe('when it happened, if not now (e.g. an event last May)'),
  session: z.string().trim().min(1).max(90).optional().describe('the conversation or task it came from'),
  source: z.string().trim().min(1).max(90).optional().describe('who or what said it (a user, a tool, a URL)'),
  tags: z.array(tag).max(20).optional(),
  links: z.array(z.object({ target_id: z.string().min(1).max(100), type: z.enum(LINK_TYPES) })).max(20).optional().describe('nodes this memory is about'),
};

/** A session and a source become tags, so every face can filter by them. */
export const sessionTag = (s: string) => `session:${s}`;
export const sourceTag = (s: string) => `source:${s}`;

function titleOf(text: string): string {
  const line = text.trim().split('\n')[0].replace(/^#+\s*/, '').trim();
  return line.length > 80 ? `${line.slice(0, 79).replace(/\s+\S*$/, '')}…` : line || 'Memory';
}

export function registerMemoryTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description:
        'Store something worth remembering: a fact, a decision, what the user said. Give when it happened (occurred_at) if not now, ' +
        'the session and source it came from, tags, and links to the nodes it is about. Several at once: pass `memories`. ' +
        'Returns the new node ids. Recall it later with `recall`.',
      inputSchema: { ...Memory, text: Memory.text.optional(), memories: z.array(z.object(Memory)).min(1).max(100).optional().describe('several memories in one call') },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const { memories, ...one } = args;
        const items = memories ?? (one.text ? [{ ...one, text: one.text }] : []);
        if (items.length === 0) return ok('Nothing to remember: give `text` or `memories`.', { created: 0, failed: 0, results: [] });
        const nodes: NodeInput[] = items.map((m) => ({
          title: m.title ?? titleOf(m.text),
          content: m.text,
          tags: [...new Set([...(m.tags ?? []), ...(m.session ? [sessionTag(m.session)] : []), ...(m.source ? [sourceTag(m.source)] : [])])],
          ...(m.occurred_at ? { occurred_at: m.occurred_at } : {}),
        }));
        const r = await client.createNodes(nodes);
        const lines: string[] = [];
        for (const [i, res] of r.results.entries()) {
          if ('id' in res) {
            const links = items[i].links ?? [];
            if (links.length) await client.addLinks(res.id, links);
            lines.push(`remembered [${res.id}] ${res.title}`);
          } else lines.push(`not remembered (item ${i + 1}): ${res.detail}`);
        }
        return ok(lines.join('\n'), { created: r.created, failed: r.failed, results: r.results.map((res) => ('id' in res ? { id: res.id, title: res.title } : { error: res })) });
      }),
  );

  server.registerTool(
    'recall',
    {
      title: 'Recall',
      description:
        'Find what was remembered: the passages that answer a question, each with its citation (node id, title, offsets) and date, best first. ' +
        'Narrow by a period (after/before, or say it in the query: "in March 2023", "last May"), a session, or tags. ' +
        'An empty answer means nothing stored answers it.',
      inputSchema: {
        query: z.string().min(1).max(2000),
        after: date.optional().describe('only what happened at or after this (first)'),
        before: date.optional().describe('only what happened before this (first)'),
        session: z.string().trim().min(1).max(90).optional(),
        tags: z.array(tag).max(20).optional(),
        limit: z.number().int().min(1).max(50).optional().describe('default 10'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const tags = [...(args.tags ?? []), ...(args.session ? [sessionTag(args.session)] : [])];
        const nodes = await client.context({
          query: args.query,
          limit: args.limit ?? 10,
          ...(args.after ? { occurred_after: args.after } : {}),
          ...(args.before ? { occurred_before: args.before } : {}),
          ...(tags.length ? { tags } : {}),
        });
        const citations = nodes.flatMap((n) =>
          n.passages.map((p) => ({ node_id: n.id, title: n.title, passage: p.text, start: p.start, end: p.end, field: p.field, date: n.occurred_at ?? n.created_at, score: n.score, reasons: n.reasons })),
        );
        if (citations.length === 0) return ok(`Nothing remembered answers "${args.query}".`, { citations });
        const text = citations.map((c, i) => `[${i + 1}] ${c.title} (${c.date.slice(0, 10)}, node ${c.node_id}, ${c.field} ${c.start}–${c.end}, score ${c.score.toFixed(3)})\n    ${c.passage.replace(/\s+/g, ' ').trim()}`).join('\n');
        return ok(text, { citations });
      }),
  );
}
