// When a feed is polled next: its own interval after a success; after errors the wait
// doubles (interval × 2^errors) up to a day. A feed failing for a week is marked `failing`
// (still polled daily, never dropped); one success clears it.
export const MAX_BACKOFF_MS = 24 * 3600_000;
export const FAILING_AFTER_MS = 7 * 24 * 3600_000;

export function nextPollDelayMs(intervalMinutes: number, errorCount: number): number {
  const base = intervalMinutes * 60_000;
  if (errorCount === 0) return base;
  return Math.min(MAX_BACKOFF_MS, Math.max(base, base * 2 ** Math.min(errorCount, 16)));
}

export function isFailing(failingSince: string | null, nowMs: number): boolean {
  return failingSince !== null && nowMs - Date.parse(failingSince) >= FAILING_AFTER_MS;
}
