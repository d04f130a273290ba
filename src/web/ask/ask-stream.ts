// POST /ask with Accept: text/event-stream: the answer's events as they arrive (citations,
// delta..., fallback?, done). A fallback voids the text so far; the caller starts again.
import { createParser } from 'eventsource-parser';
import { api } from '../lib/api.js';

export interface Citation {
  node_id: string;
  title: string;
  passage: string;
  start: number;
  end: number;
  field: 'body' | 'summary' | 'title';
  score: number;
}

export interface AskResult {
  answer: string;
  citations: Citation[];
  mode: 'extractive' | 'generative';
  abstained: boolean;
  sentences: Array<{ text: string; citation: number; start: number; end: number }>;
  maybe_related: Array<{ node_id: string; title: string; score: number }>;
  notice?: string;
}

export interface AskFilters {
  tags?: string[];
  para_item_id?: string;
  occurred_after?: string;
  occurred_before?: string;
}

export type AskEvent =
  | { type: 'citations'; mode: AskResult['mode']; citations: Citation[] }
  | { type: 'delta'; text: string }
  | { type: 'fallback'; notice: string }
  | { type: 'done'; result: AskResult };

export async function askStream(question: string, filters: AskFilters, on: (e: AskEvent) => void, signal?: AbortSignal): Promise<void> {
  const body = { question, ...(Object.keys(filters).length ? { filters } : {}) };
  const res = await api.post<Response>('/ask', body, { raw: true, accept: 'text/event-stream', signal });
  const parser = createParser({
    onEvent(ev) {
      const data = JSON.parse(ev.data);
      if (ev.event === 'done') on({ type: 'done', result: data });
      else if (ev.event === 'citations') on({ type: 'citations', mode: data.mode, citations: data.citations });
      else if (ev.event === 'delta') on({ type: 'delta', text: data.text });
      else if (ev.event === 'fallback') on({ type: 'fallback', notice: data.notice });
    },
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
}

/** Where a citation leads: its node, scrolled to the passage. */
export function citationHref(c: Pick<Citation, 'node_id' | 'start' | 'end' | 'field'>): string {
  const id = encodeURIComponent(c.node_id);
  return c.field === 'body' ? `#/nodes/${id}?passage=${c.start}-${c.end}` : `#/nodes/${id}`;
}
