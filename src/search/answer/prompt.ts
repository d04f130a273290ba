// The prompt a configured model gets: the question and the retrieved passages, numbered, and
// nothing else of the notes. The passages are taken best first until the prompt's token
// budget is spent. Pure functions.

/** Tokens the passages may take (about 4 characters a token in English). */
export const PROMPT_TOKENS = 3000;
/** Tokens the model may answer with (max_tokens). */
export const ANSWER_TOKENS = 500;
/** At most this many passages: more dilutes a small local model's attention. */
export const MAX_PROMPT_PASSAGES = 8;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export const SYSTEM_PROMPT = [
  "You answer questions from the user's own notes.",
  'Use only the numbered passages given. After every sentence, cite the passage(s) it comes from as [n].',
  'Never cite a number that was not given. Be brief: at most a few sentences.',
  "If the passages do not answer the question, say so in one sentence and cite the closest passage.",
].join(' ');

export interface PromptPassage {
  title: string;
  text: string;
}

/** How many of the passages (best first) fit the budget: at least one, cut to the budget itself. */
export function fitPassages(passages: PromptPassage[], budget = PROMPT_TOKENS): PromptPassage[] {
  const out: PromptPassage[] = [];
  let used = 0;
  for (const p of passages.slice(0, MAX_PROMPT_PASSAGES)) {
    const cost = estimateTokens(p.title) + estimateTokens(p.text) + 4;
    if (used + cost > budget) {
      if (out.length === 0) out.push({ title: p.title, text: p.text.slice(0, Math.max(0, budget - estimateTokens(p.title) - 4) * 4) });
      break;
    }
    out.push(p);
    used += cost;
  }
  return out;
}

export function chatMessages(question: string, passages: PromptPassage[]): Array<{ role: 'system' | 'user'; content: string }> {
  const numbered = passages.map((p, i) => `[${i + 1}] ${p.title}\n${p.text}`).join('\n\n');
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: `Passages from my notes:\n\n${numbered}\n\nQuestion: ${question}` },
  ];
}
