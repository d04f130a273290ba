// How many requests the event loop starts in one turn. Under load, one poll phase can hand
// the loop dozens of requests at once; Node runs every one of them before it looks at
// anything else, so a search by meaning whose query vector came back from the model worker
// waits for the whole pile, once per pass through the loop (request in, vector back). With
// a gate, a turn starts at most `perTurn` new requests and defers the rest to the next turn,
// after the loop has delivered the worker's answers: every request waits in one fair
// first-come queue instead, and the continuation of a request already started never waits
// behind new ones. A request that will wait on the model (a search by meaning, context,
// link suggestions) starts at once: starting costs the loop little, and its model call then
// runs on the other core while the loop works through the queue, instead of after it.
// `perTurn` 0 turns the gate off (every request starts at once).

/**
 * 24 new requests a turn: against no gate it cut the p99 of searches by meaning by about a
 * third and kept throughput at or near 2× 375 req/s (load bench, docs/reliability.md); a
 * server that never receives 24 requests in one turn never holds one back.
 */
export const REQUESTS_PER_TURN = 24;

export interface TurnGate {
  /**
   * Undefined when the request may start now; else resolves when it may. `urgent` starts it
   * now whatever the turn holds.
   */
  enter(urgent?: boolean): Promise<void> | undefined;
  /** Requests waiting for a turn. */
  readonly waiting: number;
}

export function createTurnGate(perTurn: number): TurnGate {
  const queue: Array<() => void> = [];
  let startedThisTurn = 0;
  let turnReset = false;

  // A turn is counted from the first request it starts; a setImmediate ends it (it runs
  // after the poll phase that delivered the requests, before the next one).
  const endTurnSoon = () => {
    if (turnReset) return;
    turnReset = true;
    setImmediate(() => {
      turnReset = false;
      startedThisTurn = 0;
      pump();
    });
  };
  // Resolving a waiter only queues its continuation, so nothing re-enters the loop below.
  const pump = () => {
    while (queue.length && startedThisTurn < perTurn) {
      startedThisTurn++;
      queue.shift()!();
    }
    if (queue.length || startedThisTurn) endTurnSoon();
  };

  return {
    enter(urgent = false) {
      if (perTurn <= 0 || urgent) return undefined;
      if (!queue.length && startedThisTurn < perTurn) {
        startedThisTurn++;
        endTurnSoon();
        return undefined;
      }
      const p = new Promise<void>((resolve) => queue.push(resolve));
      endTurnSoon();
      return p;
    },
    get waiting() {
      return queue.length;
    },
  };
}

/**
 * Whether a request will wait for the embedding model: a search whose mode is not keyword
 * (hybrid is the default), context, link suggestions. Judged from the request line alone.
 */
export function waitsOnModel(method: string | undefined, url: string | undefined): boolean {
  if (!url) return false;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (method === 'POST') return path === '/api/v1/context' || path === '/mcp';
  if (method !== 'GET') return false;
  if (path === '/api/v1/links/suggestions') return true;
  if (path !== '/api/v1/nodes' || q < 0) return false;
  const params = new URLSearchParams(url.slice(q + 1));
  return !!params.get('query')?.trim() && params.get('mode') !== 'keyword';
}
