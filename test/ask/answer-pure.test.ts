// The pure parts of an answer: sentences with offsets, sentence choice, citation checks, the prompt's budget.
import { describe, expect, it } from 'vitest';
import { citeSentences } from '../../src/search/answer/citations.js';
import { checkCitations, citedNumbers, splitAtCitations } from '../../src/schemas/citation-markers.js';
import { extractAnswer, type AnswerSource } from '../../src/search/answer/extract.js';
import { chatMessages, estimateTokens, fitPassages, PROMPT_TOKENS } from '../../src/search/answer/prompt.js';
import { splitSentences } from '../../src/search/answer/sentences.js';

describe('splitSentences', () => {
  it('cuts at sentence ends and lines, leaving Markdown markers out, with exact offsets', () => {
    const text = '# Heading line\n\n- First item. Second part!\n1. Numbered point\n> Quoted remark? Yes.\nPlain e.g. text stays whole.';
    const got = splitSentences(text);
    for (const s of got) expect(text.slice(s.start, s.end)).toBe(s.text);
    expect(got.map((s) => s.text)).toEqual(['Heading line', 'First item.', 'Second part!', 'Numbered point', 'Quoted remark?', 'Yes.', 'Plain e.g. text stays whole.']);
  });
  it('cuts an over-long sentence at a word', () => {
    const text = 'word '.repeat(200);
    const [s] = splitSentences(text, 100);
    expect(s.end - s.start).toBeLessThanOrEqual(100);
    expect(text[s.end]).toBe(' ');
  });
});

const src = (node_id: string, text: string, relevance: number, title = node_id): AnswerSource => ({ node_id, title, relevance, byMeaning: false, text, field: 'body' });

describe('extractAnswer', () => {
  it('quotes the sentence holding most of the question, in the order the note says it', () => {
    const sources = [src('a', 'Cats sleep a lot. The vet visit is on Tuesday at nine. Dogs bark.', 0.9), src('b', 'The vet bill was paid.', 0.5)];
    const ex = extractAnswer('When is the vet visit scheduled this week?', sources);
    expect(ex.sentences[0]).toMatchObject({ source: 0, text: 'The vet visit is on Tuesday at nine.' });
    expect(ex.answers).toEqual([true, false]);
  });
  it('says nothing when no sentence covers enough of the question', () => {
    const ex = extractAnswer('When did the chess federation reschedule the tournament?', [src('a', 'The tournament of roses parade.', 0.4)]);
    expect(ex.sentences).toEqual([]);
  });
  it('hears a note whose title names what the question asks: its title is said by each of its sentences', () => {
    // The title holds one of the question's three words, no sentence holds any: at half a
    // title's weight (the former rule) its coverage was 1/6 and the notes did not say.
    const ex = extractAnswer('levain schedule amounts', [src('a', 'Twice a day with equal weights of rye flour and water. Keep it warm.', 0.6, 'Levain')]);
    expect(ex.answers).toEqual([true]);
    expect(ex.sentences[0].text).toBe('Twice a day with equal weights of rye flour and water.');
  });
  it('takes a note drawn in by meaning alone as it stands', () => {
    const ex = extractAnswer('How warm does garden waste get?', [{ ...src('a', 'A hot compost pile reaches sixty degrees. It smells.', 0.6), byMeaning: true }]);
    expect(ex.sentences[0].text).toBe('A hot compost pile reaches sixty degrees.');
  });
  it('keeps search\'s order between notes it scored level: its first note is cited first', () => {
    // The second note says more of the question, at the same relevance.
    const sources = [src('a', 'The watcher waits for the process to finish.', 0.69), src('b', 'Wait here for the signal to finish.', 0.69)];
    const ex = extractAnswer('wait for a signal to finish', sources);
    expect(ex.sentences[0].source).toBe(0);
    expect(ex.sentences.map((x) => x.source)).toContain(1);
  });
  it('weighs rare words over common ones', () => {
    const rarity = new Map([['project', 0.1], ['deadline', 3]]);
    const sources = [src('a', 'The project meeting is weekly. The deadline is 3 March.', 0.8)];
    const ex = extractAnswer('project deadline', sources, { rarity, maxSentences: 1 });
    expect(ex.sentences[0].text).toBe('The deadline is 3 March.');
  });
});

describe('citations', () => {
  it('numbers one citation per passage, each sentence followed by its number', () => {
    const sources = [src('a', 'Alpha one here. Alpha two here.', 0.9, 'A'), src('b', 'Beta one here.', 0.8, 'B')];
    const out = citeSentences(extractAnswer('alpha beta one two here', sources).sentences, sources);
    expect(out.citations.map((c) => c.node_id)).toEqual(['a', 'b']);
    expect(out.answer).toMatch(/\[1\].*\[2\]$/);
    expect(out.citations[0].passage).toBe(sources[0].text.slice(out.citations[0].start, out.citations[0].end));
  });
  it('checks a model answer: at least one citation, every number given', () => {
    expect(citedNumbers('A [1]. B [2, 3][4]; C [5;6].')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(checkCitations('A [1]. B [2].', 2)).toEqual({ ok: true, cited: [1, 2] });
    expect(checkCitations('A [1]. B [3].', 2)).toMatchObject({ ok: false, reason: 'unknown_citation' });
    expect(checkCitations('A [0].', 2)).toMatchObject({ ok: false, reason: 'unknown_citation' });
    expect(checkCitations('No citation at all.', 2)).toMatchObject({ ok: false, reason: 'cites_nothing' });
  });
  it('reads markers as the dashboard reads them: one module cuts the answer at its markers for both', () => {
    const answer = 'Top it up [1]. Check the gauge [2, 3][4]; see [[wikilink]] and [note] and [5;6]';
    expect(splitAtCitations(answer)).toEqual([
      { text: 'Top it up ' }, { cites: [1] }, { text: '. Check the gauge ' }, { cites: [2, 3] }, { cites: [4] },
      { text: '; see [[wikilink]] and [note] and ' }, { cites: [5, 6] },
    ]);
    expect(splitAtCitations(answer).flatMap((p) => ('cites' in p ? p.cites : []))).toEqual(citedNumbers(answer));
    expect(splitAtCitations(answer).map((p) => ('text' in p ? p.text : '')).join('')).toBe(answer.replace(/\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\]/g, ''));
    expect(splitAtCitations('')).toEqual([]);
  });
});

describe('the prompt', () => {
  it('numbers the passages and stays within its token budget', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ title: `T${i}`, text: 'x'.repeat(2000) }));
    const fitted = fitPassages(many);
    expect(fitted.reduce((a, p) => a + estimateTokens(p.text), 0)).toBeLessThanOrEqual(PROMPT_TOKENS);
    expect(fitPassages([{ title: 'Huge', text: 'y'.repeat(100_000) }])[0].text.length).toBeLessThan(PROMPT_TOKENS * 4);
    const [, user] = chatMessages('Why?', [{ title: 'One', text: 'first' }, { title: 'Two', text: 'second' }]);
    expect(user.content).toBe('Passages from my notes:\n\n[1] One\nfirst\n\n[2] Two\nsecond\n\nQuestion: Why?');
  });
});

describe('passageAround', () => {
  it("quotes the sentence's own paragraph, or from the sentence in a long one", async () => {
    const { passageAround } = await import('../../src/search/answer/extract.js');
    const text = `Intro paragraph.\n\nFirst. The answer is here. Last.\n\n${'Long filler sentence here. '.repeat(60)}The late answer. More.`;
    const at = text.indexOf('The answer');
    expect(text.slice(...Object.values(passageAround(text, { start: at, end: at + 19 })) as [number, number])).toBe('First. The answer is here. Last.');
    const late = text.indexOf('The late answer');
    const p = passageAround(text, { start: late, end: late + 16 });
    expect(p.start).toBe(late);
    expect(text.slice(p.start, p.end)).toBe('The late answer. More.');
  });
});
