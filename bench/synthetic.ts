// Synthetic notes for the search bench: Zipf-distributed words from a pseudo-word
// vocabulary, each note about one of a few hundred topics (so FTS postings and query
// selectivity look like a real notebook), and 512-d unit vectors with the same topic /
// sub-topic structure (so nearest neighbours mean something, as with real embeddings).
import { normalize } from '../src/vectors/math.js';

export function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = 'ka lo mi ne ru sa te vi zo ba de fi go hu ja ku le mo nu pa ri so tu wa xe yo zu bri cla dro fre gli pro sta tre'.split(' ');

export interface SyntheticNote {
  title: string;
  body: string;
  tags: string[];
  topic: number;
  subtopic: number;
}

export class SyntheticCorpus {
  readonly vocab: string[];
  private readonly cdf: Float64Array;
  private readonly topicWords: number[][];
  private readonly centres: Float32Array[];
  private readonly subs: Float32Array[];
  readonly rand: () => number;

  constructor(
    readonly dimension = 512,
    readonly topics = 200,
    readonly subtopicsPerTopic = 10,
    vocabSize = 20_000,
    seed = 7,
  ) {
    this.rand = mulberry32(seed);
    const seen = new Set<string>();
    this.vocab = [];
    while (this.vocab.length < vocabSize) {
      const n = 2 + Math.floor(this.rand() * 3);
      let w = '';
      for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(this.rand() * SYLLABLES.length)];
      if (!seen.has(w)) seen.add(w), this.vocab.push(w);
    }
    this.cdf = new Float64Array(vocabSize);
    let acc = 0;
    for (let r = 0; r < vocabSize; r++) this.cdf[r] = acc += 1 / (r + 1);
    for (let r = 0; r < vocabSize; r++) this.cdf[r] /= acc;
    this.topicWords = Array.from({ length: topics }, () => Array.from({ length: 60 }, () => 200 + Math.floor(this.rand() * (vocabSize - 200))));
    const gauss = () => this.rand() * 2 - 1;
    this.centres = Array.from({ length: topics }, () => Float32Array.from({ length: dimension }, gauss));
    this.subs = Array.from({ length: topics * subtopicsPerTopic }, () => Float32Array.from({ length: dimension }, gauss));
  }

  private zipfWord(): string {
    const u = this.rand();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return this.vocab[lo];
  }

  private topicWord(topic: number): string {
    const ws = this.topicWords[topic];
    return this.vocab[ws[Math.floor(this.rand() ** 2 * ws.length)]];
  }

  private words(n: number, topic: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.rand() < 0.35 ? this.topicWord(topic) : this.zipfWord());
    return out.join(' ');
  }

  note(bodyWords = 80): SyntheticNote {
    const topic = Math.floor(this.rand() * this.topics);
    const subtopic = topic * this.subtopicsPerTopic + Math.floor(this.rand() * this.subtopicsPerTopic);
    return { title: this.words(6, topic), body: this.words(bodyWords, topic), tags: [this.topicWord(topic)], topic, subtopic };
  }

  /** A unit vector near the sub-topic's centre (a note's or a query's). */
  vector(subtopic: number): Float32Array {
    const t = this.centres[Math.floor(subtopic / this.subtopicsPerTopic)];
    const s = this.subs[subtopic];
    const v = new Float32Array(this.dimension);
    for (let i = 0; i < this.dimension; i++) v[i] = t[i] + 0.8 * s[i] + 0.6 * (this.rand() * 2 - 1);
    return normalize(v);
  }

  /** A query the way people type them: 1-4 words about one topic. */
  query(): { text: string; subtopic: number } {
    const topic = Math.floor(this.rand() * this.topics);
    const n = 1 + Math.floor(this.rand() * 4);
    const words = Array.from({ length: n }, () => (this.rand() < 0.7 ? this.topicWord(topic) : this.zipfWord()));
    return { text: words.join(' '), subtopic: topic * this.subtopicsPerTopic + Math.floor(this.rand() * this.subtopicsPerTopic) };
  }
}
