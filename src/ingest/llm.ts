// Optional summarizer/tagger over an OpenAI-compatible chat endpoint (Ollama, llama.cpp,
// vLLM...), used instead of the local method when RHIZOME_LLM_URL is set.
export interface LlmResult {
  summary: string;
  tags: string[];
  model: string;
}

export function chatCompletionsUrl(base: string): string {
  const b = base.replace(/\/+$/, '');
  if (b.endsWith('/chat/completions')) return b;
  if (b.endsWith('/v1')) return `${b}/chat/completions`;
  return `${b}/v1/chat/completions`;
}

function firstJsonObject(s: string): Record<string, unknown> | null {
  const start = s.indexOf('{');
  const end = s.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(s.slice(start, end + 1));
  } catch {
    return null;
  }
}

export async function llmSummarizeAndTag(
  cfg: { url: string; model: string; timeoutMs?: number },
  input: { title: string; text: string; existingTags: string[] },
): Promise<LlmResult> {
  const prompt =
    `Summarise the document below in at most three sentences and give up to five short lowercase topic tags. ` +
    `Prefer these existing tags when they fit: ${input.existingTags.slice(0, 100).join(', ') || '(none)'}.\n` +
    `Answer with JSON only: {"summary": "...", "tags": ["..."]}.\n\nTitle: ${input.title}\n\n${input.text.slice(0, 12_000)}`;
  const res = await fetch(chatCompletionsUrl(cfg.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: cfg.model, temperature: 0, messages: [{ role: 'user', content: prompt }] }),
    signal: AbortSignal.timeout(cfg.timeoutMs ?? 60_000),
  });
  if (!res.ok) throw new Error(`LLM endpoint answered HTTP ${res.status}`);
  const body = (await res.json()) as { model?: string; choices?: Array<{ message?: { content?: string } }> };
  const content = body.choices?.[0]?.message?.content ?? '';
  const parsed = firstJsonObject(content);
  if (!parsed || typeof parsed.summary !== 'string') throw new Error('LLM answer was not the requested JSON');
  const tags = Array.isArray(parsed.tags) ? parsed.tags.filter((t): t is string => typeof t === 'string').slice(0, 5) : [];
  return { summary: parsed.summary.trim().slice(0, 1000), tags, model: body.model || cfg.model };
}
