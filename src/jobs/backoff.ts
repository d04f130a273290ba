// How long a failed job waits before its next attempt: doubling from half a second,
// capped at a minute. The queue and the capture pipeline's own retry events share it.
export function retryDelayMs(attempt: number): number {
  return Math.min(60_000, 500 * 2 ** (Math.max(1, attempt) - 1));
}
