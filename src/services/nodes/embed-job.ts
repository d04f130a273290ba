// The durable job that gives a node its vector (queued with every write that changes the
// node's embedding text, deduplicated per node).
export const EMBED_JOB = 'embed_node';

export interface EmbedJobPayload {
  node_id: string;
}

export const embedDedupeKey = (nodeId: string) => `embed:${nodeId}`;
