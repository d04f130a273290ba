// What goes into and comes out of the vector store (vector-store.ts): a node's vectors to
// write, a node scored against a query, and the event that says written vectors committed.
import type { PassageWrite } from '../repos/passages.repo.js';

export interface VectorWrite {
  nodeId: string;
  /** The embedding text the vector was computed from: it is stored only if the node still has it. */
  text: string;
  vector: Float32Array;
  /**
   * A long note's passage vectors and the body they were cut from (stored only if the node
   * still has exactly that body). Without them a long note's own vector is stored but the
   * node is not marked embedded for its whole text: its embedding job computes them.
   */
  passages?: { body: string; vectors: PassageWrite[] };
}

export interface ScoredNode {
  seq: number;
  id: string;
  score: number; // approximate cosine similarity
  /** The passage whose vector gave the score, when one of the note's passages is closer than the note itself. */
  passage?: number;
}

export interface EmbeddedEvent {
  tenantId: string;
  nodeIds: string[];
}
