// POST /ask: an answer from the tenant's notes with its citations; with
// `Accept: text/event-stream` the answer streams as server-sent events (citations, delta...,
// fallback?, done) and a client that goes away stops the model.
import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { Services } from '../../container.js';
import { AskRequest, AskResult } from '../../schemas/ask.js';
import { body, errors } from '../../schemas/common.js';
import { createRouter } from '../router.js';

const STREAM_DESCRIPTION =
  'With Accept: text/event-stream, server-sent events: `citations` {mode, citations}, then `delta` {text} as the answer is written, ' +
  "`fallback` {notice} when a model's answer is replaced (discard the text so far; the extractive citations and deltas follow), and `done` {the whole AskResult}.";

export function askRoutes(s: Services) {
  const r = createRouter();
  r.openapi(
    createRoute({
      method: 'post', path: '/ask', tags: ['ask'], summary: 'Answer a question from the notes, citing the passages it came from',
      description: "Extractive (offline) unless RHIZOME_LLM_URL configures a model; when nothing retrieved answers, `abstained` is true and the answer is \"Your notes don't say.\"",
      request: body(AskRequest),
      responses: {
        200: { description: 'The answer', content: { 'application/json': { schema: AskResult }, 'text/event-stream': { schema: z.string().openapi({ description: STREAM_DESCRIPTION }) } } },
        ...errors(400, 429),
      },
    }),
    async (c) => {
      const tenantId = c.get('tenantId');
      const req = c.req.valid('json');
      if (!(c.req.header('accept') ?? '').includes('text/event-stream')) return c.json(await s.ask.ask(tenantId, req, c.req.raw.signal), 200);
      return streamSSE(c, async (stream) => {
        const gone = new AbortController();
        stream.onAbort(() => gone.abort());
        for await (const e of s.ask.stream(tenantId, req, gone.signal)) {
          if (gone.signal.aborted) break;
          const { type, ...data } = e;
          await stream.writeSSE({ event: type, data: JSON.stringify(type === 'done' ? e.result : data) });
        }
      }) as never;
    },
  );
  return r;
}
