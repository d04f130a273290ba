// The extractive answer: from the notes search ranked for a question, the sentences that
// answer it, chosen and ordered, each with the passage it stands in (its citation).
//
// A sentence's coverage is the share of the question's terms it holds, each term weighted by
// its rarity among the tenant's notes (BM25's idf: a word most notes share says least);
// words of the note's title count as said by each of its sentences (a sentence about "it" under
// the title that names it: see TITLE_SHARE).
// Its score is the note's relevance × (1 − COVERAGE_WEIGHT + COVERAGE_WEIGHT × coverage): with
// the weight at 0, search's order decides between notes and coverage chooses each note's
// sentences. A note answers when one of its sentences covers MIN_COVERAGE of the question, or
// its cosine to the question clears meaningLine() (between the model's floor and the
// tenant's semantic gate); when none answers, the caller abstains, and when any does, so does
// the note search ranks first (TOP_FIRST). A further sentence is quoted when it says a part of
// the question the answer has not (its note's title counts as said) and is worth
// FURTHER_SHARE of the first, or NEAR_BEST of it. Pure functions.
import { PASSAGE_CHARS, splitPassages, type Span } from '../passages.js';
import { contentWords, stem } from '../text.js';
import { splitSentences } from './sentences.js';

export interface AnswerSource {
  node_id: string;
  title: string;
  /** The note's relevance from search, in [0, 1]. */
  relevance: number;
  /** Its cosine to the question clears meaningLine(): it answers as it stands, whatever words it shares. */
  byMeaning: boolean;
  /** The text sentences are taken from, and which of the node's fields it is. */
  text: string;
  field: 'body' | 'summary' | 'title';
}

export interface QuotedSentence extends Span {
  /** Index into the sources. */
  source: number;
  text: string;
  coverage: number;
  /** Its place in the answer: the note's rank, and with COVERAGE_WEIGHT its coverage. */
  score: number;
  /** What it is worth beside the first sentence chosen: the note's relevance × (0.5 + 0.5 × coverage). */
  quality: number;
  /** The passage the sentence stands in: its paragraph, or, in a long one, the sentence and what follows it (≤ PASSAGE_CHARS). */
  passage: Span;
}

export interface Extraction {
  /** The answer's sentences, in reading order; empty: the notes do not say. */
  sentences: QuotedSentence[];
  /** Per source: its best sentence (the one a citation or a prompt would quote), or null without text. */
  best: Array<QuotedSentence | null>;
  /** Per source: whether it answers (coverage or meaning). */
  answers: boolean[];
}

/**
 * Share of the question a sentence must hold for its note to answer. `npm run eval -- --ask`
 * (RHIZOME_EVAL_SWEEP=1), CISI / Debian / Python docs: 0.3 answered 100 / 99.5 / 99.6% of the
 * judged questions and said "Your notes don't say" to 36 / 31 / 30% of the other collections'
 * questions; 0.4 and 0.5 abstained more on both (docs/ask.md).
 */
export const MIN_COVERAGE = 0.3;
/**
 * Where between the model's floor (λ = 0) and the tenant's semantic gate (λ = 1) a note's
 * cosine vouches for its meaning. Same sweep: λ = 0 left 13-16% of the other collections'
 * questions unanswered, 0.5 31-36% at no cost on CISI and Debian (−0.2 points on the Python
 * docs); 1 abstained on more of the judged questions too.
 */
export const MEANING_LAMBDA = 0.5;

/** The cosine above which a note answers by its meaning; Infinity when the question does not speak by meaning here (gate Infinity). */
export function meaningLine(floor: number, gate: number, lambda = MEANING_LAMBDA): number {
  if (!Number.isFinite(gate)) return lambda === 0 ? floor : Infinity;
  return floor + lambda * (Math.max(gate, floor) - floor);
}
/**
 * How much a sentence's coverage, against its note's rank, decides its place. 0.5 gained 2.6
 * points of first-citation relevance on CISI and lost 1.3 on Debian and 3.2 on the Python
 * docs (`npm run eval -- --ask`, RHIZOME_EVAL_SWEEP=1): search's order stays.
 */
export const COVERAGE_WEIGHT = 0;
/** When any note answers, so does the one search ranks first: the first citation is search's first hit whenever the notes say anything. */
export const TOP_FIRST = true;
/** An answer quotes at most this many sentences, at most MAX_PER_NOTE of one note. */
export const MAX_SENTENCES = 3;
export const MAX_PER_NOTE = 2;
const NEAR_BEST = 0.85;
const FURTHER_SHARE = 0.6;
/**
 * How much a question word in the note's title counts toward each of its sentences' coverage.
 * A title names what every sentence under it is about ("pdb.Pdb.do_unt" over "Without
 * argument, continue execution until…"). `npm run eval -- --ask` (RHIZOME_EVAL_SWEEP=1), same
 * retrievals, CISI / Debian / Python docs: 0.5 left the first citation at 0.5132 / 0.6914 /
 * 0.4672 (Python docs 0.0011 under precision@1: one question whose first hit matched it only by
 * its title), 1 at 0.5132 / 0.6914 / 0.4683 (= precision@1 on all three), with other
 * collections' questions abstained 33.0 → 32.0% / 30.7 → 30.7% / 29.5 → 29.5%.
 */
export const TITLE_SHARE = 1;

export function questionStems(question: string): string[] {
  return [...new Set(contentWords(question).map(stem))];
}

/**
 * `rarity`: each query word's idf among the tenant's notes (SearchService.termRarity); a
 * word it does not know weighs as the rarest known one (1 without any).
 */
export function extractAnswer(question: string, sources: AnswerSource[], opts: { maxSentences?: number; minCoverage?: number; coverageWeight?: number; topFirst?: boolean; rarity?: Map<string, number>; titleShare?: number } = {}): Extraction {
  const max = opts.maxSentences ?? MAX_SENTENCES;
  const minCoverage = opts.minCoverage ?? MIN_COVERAGE;
  const cw = opts.coverageWeight ?? COVERAGE_WEIGHT;
  const titleShare = opts.titleShare ?? TITLE_SHARE;
  const terms = questionStems(question);
  const byStem = new Map<string, number>();
  for (const [w, idf] of opts.rarity ?? []) for (const s of contentWords(w).map(stem)) byStem.set(s, Math.max(byStem.get(s) ?? 0, idf));
  const rarest = byStem.size ? Math.max(...byStem.values()) : 1;
  const weight = new Map(terms.map((t) => [t, byStem.get(t) ?? rarest]));
  const total = terms.reduce((a, t) => a + weight.get(t)!, 0);

  const all: QuotedSentence[] = [];
  const best: Array<QuotedSentence | null> = [];
  const answers: boolean[] = [];
  sources.forEach((src, i) => {
    const title = new Set(contentWords(src.title).map(stem));
    let top: QuotedSentence | null = null;
    for (const s of splitSentences(src.text)) {
      const here = new Set(contentWords(s.text).map(stem));
      const got = terms.reduce((a, t) => a + (here.has(t) ? weight.get(t)! : title.has(t) ? titleShare * weight.get(t)! : 0), 0);
      const coverage = total > 0 ? got / total : 0;
      const score = src.relevance * (1 - cw + cw * coverage);
      const passage = passageAround(src.text, s);
      const q: QuotedSentence = { ...s, source: i, coverage, score, quality: src.relevance * (0.5 + 0.5 * coverage), passage };
      all.push(q);
      if (!top || q.score > top.score || (q.score === top.score && q.coverage > top.coverage)) top = q;
    }
    best.push(top);
    answers.push(top !== null && (src.byMeaning || top.coverage >= minCoverage));
  });
  // When the notes say anything, search's first note is heard first: it is the best evidence
  // there is (see TOP_FIRST).
  if (opts.topFirst ?? TOP_FIRST) {
    const first = best.findIndex((b) => b !== null);
    if (first >= 0 && answers.some(Boolean)) answers[first] = true;
  }

  // Notes search scored level keep search's order (its first note is heard first even when
  // another says more of the question); within a note, the sentence that says most.
  const pool = all.filter((s) => answers[s.source] && (s.coverage > 0 || sources[s.source].byMeaning)).sort((a, b) => b.score - a.score || a.source - b.source || b.coverage - a.coverage || a.start - b.start);
  // A note drawn in by meaning with no word of the question: its best sentence is its first.
  for (let i = 0; i < sources.length; i++) if (answers[i] && !pool.some((s) => s.source === i) && best[i]) pool.push(best[i]!);

  const chosen: QuotedSentence[] = [];
  const covered = new Set<string>();
  const perNote = new Map<number, number>();
  for (const s of pool) {
    if (chosen.length >= max) break;
    if ((perNote.get(s.source) ?? 0) >= MAX_PER_NOTE) continue;
    const here = new Set(contentWords(s.text).map(stem));
    const adds = terms.some((t) => here.has(t) && !covered.has(t));
    const worth = s.quality / chosen[0]?.quality;
    if (chosen.length > 0 && worth < NEAR_BEST && !(adds && worth >= FURTHER_SHARE)) continue;
    chosen.push(s);
    perNote.set(s.source, (perNote.get(s.source) ?? 0) + 1);
    const said = new Set([...here, ...contentWords(sources[s.source].title).map(stem)]);
    for (const t of terms) if (said.has(t)) covered.add(t);
  }
  return { sentences: readingOrder(chosen), best, answers };
}

/** Notes in the order of their best pick; a note's sentences in the order it says them. */
function readingOrder(chosen: QuotedSentence[]): QuotedSentence[] {
  const first = new Map<number, number>();
  chosen.forEach((s, i) => first.has(s.source) || first.set(s.source, i));
  return [...chosen].sort((a, b) => first.get(a.source)! - first.get(b.source)! || a.start - b.start);
}

/**
 * The passage a citation quotes for a sentence: the paragraph it stands in when that fits a
 * passage; else from the paragraph's start when the sentence is near it, or from the sentence
 * itself, to a boundary within PASSAGE_CHARS. The cited sentence is always inside, near the top.
 */
export function passageAround(text: string, s: Span): Span {
  const before = text.lastIndexOf('\n\n', s.start);
  const paraStart = before < 0 ? 0 : before + 2;
  const after = text.indexOf('\n\n', s.end);
  const paraEnd = after < 0 ? text.length : after;
  const from = paraEnd - paraStart <= PASSAGE_CHARS || s.start - paraStart < PASSAGE_CHARS / 4 ? paraStart : s.start;
  const [first] = splitPassages(text.slice(from, paraEnd));
  const span = first ? { start: from + first.start, end: from + first.end } : { start: s.start, end: s.end };
  return span.end >= s.end ? span : { start: s.start, end: Math.max(s.end, span.end) };
}
