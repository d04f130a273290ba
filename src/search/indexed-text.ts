// What of a node the keyword index reads as its body: its text, then the notes its owner
// wrote on its highlights, so a note is found by its words like the text it comments on
// (the highlighted words themselves are already in the text). One place, so a node's
// writes, its highlights' writes and the engine transfers index the same words.
export function indexedBody(body: string, notes: readonly string[]): string {
  const kept = notes.filter((n) => n.trim());
  return kept.length ? `${body}\n\n${kept.join('\n\n')}` : body;
}
