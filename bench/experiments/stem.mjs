// Minimal suffix stripper used only to group word variants when counting feedback terms
// (FTS5's own porter tokenizer stems the query terms we send back).
export function lightStem(w) {
  if (w.length <= 3) return w;
  for (const [suf, rep] of [['ational', 'ate'], ['ization', 'ize'], ['fulness', 'ful'], ['iveness', 'ive'], ['ousness', 'ous'], ['ations', 'ate'], ['ation', 'ate'], ['ities', 'ity'], ['ments', 'ment'], ['ingly', ''], ['ings', ''], ['ing', ''], ['edly', ''], ['ies', 'y'], ['ied', 'y'], ['ed', ''], ['es', 'e'], ['ly', ''], ['s', '']]) {
    if (w.endsWith(suf) && w.length - suf.length >= 3) {
      if (suf === 's' && (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is'))) return w;
      return w.slice(0, w.length - suf.length) + rep;
    }
  }
  return w;
}
