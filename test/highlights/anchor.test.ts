import { describe as group, expect, it } from 'vitest';
import { anchorText, describe, locate } from '../../src/schemas/highlight-selectors.js';

const text = 'The river rose in spring. The river fell in autumn. Farmers planted after the river fell, never before.';

group('highlight anchoring', () => {
  it('survives an edit elsewhere in the text: the same words are found at their new offsets', () => {
    const start = text.indexOf('Farmers planted');
    const a = describe(text, start, start + 'Farmers planted'.length);
    const edited = `A new opening paragraph was added above.\n\n${text.replace('spring', 'the wet spring')}`;
    const at = locate(edited, a.quote, a.position)!;
    expect(edited.slice(at.start, at.end)).toBe('Farmers planted');
    expect(at.start).not.toBe(a.position.start);
  });

  it('tells repeated words apart by their context, not by the first occurrence', () => {
    const second = text.indexOf('the river fell');
    const a = describe(text, second + 4, second + 'the river fell'.length);
    expect(a.quote.exact).toBe('river fell');
    const edited = `Preface. ${text}`;
    const at = locate(edited, a.quote, a.position)!;
    expect(edited.slice(at.start - 10, at.end)).toBe('after the river fell');
    // Without context the first "river fell" would have been taken.
    expect(locate(edited, { ...a.quote, prefix: '', suffix: '' })!.start).toBe(edited.indexOf('river fell'));
  });

  it('says so when its words are gone (orphaned), rather than anchoring on something else', () => {
    const start = text.indexOf('never before');
    const a = describe(text, start, start + 'never before'.length);
    expect(locate(text.replace('never before', 'sometimes earlier'), a.quote, a.position)).toBeNull();
    expect(anchorText(text, 'a sentence that is not there')).toBeNull();
  });

  it('forgives re-wrapped lines and Markdown emphasis', () => {
    const md = 'Farmers **planted** after\nthe   river fell.';
    const at = locate(md, { exact: 'planted after the river fell', prefix: '', suffix: '' })!;
    expect(md.slice(at.start, at.end)).toBe('planted** after\nthe   river fell');
  });
});
