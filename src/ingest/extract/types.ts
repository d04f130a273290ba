// What every extractor yields: markdown a person can read, a title if the document has
// one, metadata worth showing (counts, dimensions, authorship), and which library did it.
export interface Extracted {
  title?: string;
  markdown: string;
  metadata: Record<string, unknown>;
  extractor: string;
}
