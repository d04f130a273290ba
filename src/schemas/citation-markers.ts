// The citation markers of an answer: `[1]`, `[2, 3]`, `[1; 4]`, `[1][4]`. One reading for the
// server, which keeps a model's answer only when it cites passages it was given
// (services/ask/generative.ts), and the dashboard, which makes each number a link
// (web/ask/Answer.tsx). No zod here: the browser bundle imports this file. Pure functions.

/** One marker: a bracketed list of numbers separated by commas or semicolons. */
const MARKER = /\[(\s*\d+\s*(?:[,;]\s*\d+\s*)*)\]/g;

const numbersOf = (inside: string): number[] => inside.split(/[,;]/).map((n) => Number(n.trim()));

/** The numbers an answer cites, in order (repeats kept). */
export function citedNumbers(answer: string): number[] {
  return [...answer.matchAll(MARKER)].flatMap((m) => numbersOf(m[1]));
}

/** The answer cut at its markers, in order: the text between them, and each marker's numbers. */
export function splitAtCitations(answer: string): Array<{ text: string } | { cites: number[] }> {
  const out: Array<{ text: string } | { cites: number[] }> = [];
  let at = 0;
  for (const m of answer.matchAll(MARKER)) {
    if (m.index > at) out.push({ text: answer.slice(at, m.index) });
    out.push({ cites: numbersOf(m[1]) });
    at = m.index + m[0].length;
  }
  if (at < answer.length) out.push({ text: answer.slice(at) });
  return out;
}

export type CitationCheck = { ok: true; cited: number[] } | { ok: false; reason: 'cites_nothing' | 'unknown_citation'; cited: number[] };

/** A model's answer is kept only when it cites at least one passage and every number it cites was given (1..given). */
export function checkCitations(answer: string, given: number): CitationCheck {
  const cited = citedNumbers(answer);
  if (cited.length === 0) return { ok: false, reason: 'cites_nothing', cited };
  if (cited.some((n) => !Number.isInteger(n) || n < 1 || n > given)) return { ok: false, reason: 'unknown_citation', cited };
  return { ok: true, cited: [...new Set(cited)] };
}
