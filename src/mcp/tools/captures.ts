// MCP tools over captures: queue a URL or a note, follow its processing, read what was fetched.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guessUrlContentType, NOTE_TEXT_FIELD, noteTitle } from '../../client/capture-kind.js';
import type { RhizomeClient } from '../../client/client.js';
import { CONTENT_TYPES, type CaptureInput } from '../../client/types.js';
import { guard, ok } from '../result.js';
import { id } from './args.js';

const MAX_TEXT = 200_000;
const TEXTUAL = /^(text\/|application\/(json|xml|xhtml\+xml|javascript|x-ndjson)|.*\+json|.*\+xml)/;

export function registerCaptureTools(server: McpServer, client: RhizomeClient): void {
  server.registerTool(
    'capture',
    {
      title: 'Capture a URL or a note',
      description:
        'Queue a web page (url) or a note (note text) for background processing into a knowledge node: fetch, extract, ' +
        'summarise, tag, embed, classify into PARA, link. Give exactly one of url or note. Returns the capture id; ' +
        'follow it with capture_status.',
      inputSchema: {
        url: z.string().url().max(2000).optional(),
        note: z.string().min(1).max(500_000).optional().describe('note text (markdown)'),
        title: z.string().trim().min(1).max(500).optional().describe('default: the URL, or the first line of the note'),
        why: z.string().max(2000).optional().describe('why this is worth keeping'),
        selected_text: z.string().max(100_000).optional().describe('a highlighted passage of the page'),
        content_type: z.enum(CONTENT_TYPES).optional().describe('default: guessed from the URL, note for notes'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (a) => guard(async () => {
      if ((a.url === undefined) === (a.note === undefined)) throw new Error('give exactly one of url or note');
      const input: CaptureInput = a.url
        ? { title: a.title ?? a.url, url: a.url, content_type: a.content_type ?? guessUrlContentType(a.url), source: 'mcp' }
        : { title: a.title ?? noteTitle(a.note!), content_type: a.content_type ?? 'note', source: 'mcp', [NOTE_TEXT_FIELD]: a.note };
      if (a.why) input.why = a.why;
      if (a.selected_text) input.selected_text = a.selected_text;
      const c = await client.capture(input);
      return ok(`Captured "${input.title}" as ${c.id} (status ${c.status}); processing runs in the background.`, { ...c });
    }),
  );

  server.registerTool(
    'capture_status',
    {
      title: 'Capture status',
      description: 'Processing status of a capture (pending, processing, completed, failed, archived, dismissed), the node it produced, any error, and its activity timeline.',
      inputSchema: { id },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id }) => guard(async () => {
      const [c, activity] = await Promise.all([client.getCapture(id), client.captureActivity(id).catch(() => [])]);
      const lines = [
        `Capture ${c.id}: ${c.status}${c.title ? ` — ${c.title}` : ''}`,
        c.node_id ? `node: ${c.node_id}` : '',
        c.error ? `error: ${c.error}` : '',
        ...activity.map((e) => `  ${e.at} ${e.kind}`),
      ];
      return ok(lines.filter(Boolean).join('\n'), { ...c, activity });
    }),
  );

  server.registerTool(
    'read_capture_content',
    {
      title: "Read a capture's content",
      description:
        'The content of a capture: format markdown (default) is the processed text the node was made from; raw is what was ' +
        'captured (text types only: binary files such as PDFs or images are described, not returned).',
      inputSchema: { id, format: z.enum(['markdown', 'raw']).optional() },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id, format }) => guard(async () => {
      const fmt = format ?? 'markdown';
      const r = await client.captureContent(id, fmt === 'markdown' ? 'markdown' : undefined);
      if (!TEXTUAL.test(r.contentType)) {
        return ok(`Capture ${id} holds ${r.body.length} bytes of ${r.contentType}; ask for format markdown to read its text.`, { id, content_type: r.contentType, bytes: r.body.length });
      }
      const text = new TextDecoder().decode(r.body);
      const cut = text.length > MAX_TEXT;
      return ok(cut ? `${text.slice(0, MAX_TEXT)}\n\n[…cut at ${MAX_TEXT} of ${text.length} characters]` : text, { id, content_type: r.contentType, characters: text.length, truncated: cut });
    }),
  );
}
