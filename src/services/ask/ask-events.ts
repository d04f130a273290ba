// What an answer is made of as it is produced: the citations first, then the answer's text
// piece by piece, then the whole result. A model's answer that fails its checks is followed
// by `fallback` (the text so far is void) and the extractive answer. The HTTP route sends
// these as server-sent events; ask() keeps only the last.
import type { AskResultDto } from '../../schemas/ask.js';
import type { Citation } from '../../search/answer/citations.js';

export type AskEvent =
  | { type: 'citations'; mode: 'extractive' | 'generative'; citations: Citation[] }
  | { type: 'delta'; text: string }
  | { type: 'fallback'; notice: string }
  | { type: 'done'; result: AskResultDto };

export const DONT_SAY = "Your notes don't say.";
