// A page that cannot be fetched right now (an offline laptop, DNS down, a site's bad hour)
// is retried with a growing wait for about a day before the capture is marked failed. Its
// bookmark node exists from the first failure, so nothing the user saved goes missing.
const MIN = 60_000;
export const CAPTURE_RETRY_DELAYS_MS = [15_000, MIN, 5 * MIN, 15 * MIN, 30 * MIN, 60 * MIN, 120 * MIN, 240 * MIN, 480 * MIN, 480 * MIN];

/** The first run plus one per scheduled retry (about 23.9 hours of retries in all). */
export const CAPTURE_MAX_ATTEMPTS = CAPTURE_RETRY_DELAYS_MS.length + 1;

export function captureRetryDelayMs(attempt: number): number {
  return CAPTURE_RETRY_DELAYS_MS[Math.min(Math.max(1, attempt), CAPTURE_RETRY_DELAYS_MS.length) - 1];
}
