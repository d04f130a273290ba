// Politeness for bulk captures (a bookmark import queues thousands of URLs, often many on
// one site): fetches to the same host are spaced by a minimum gap, while different hosts
// proceed freely; the job queue already bounds how many run at once. Loopback hosts are
// the user's own machine and are not spaced.
export const HOST_GAP_MS = 1000;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export class HostSpacing {
  private readonly nextAt = new Map<string, number>();

  constructor(
    private readonly gapMs = HOST_GAP_MS,
    private readonly now: () => number = () => Date.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Resolves when a request to this URL's host may start. */
  async wait(url: string): Promise<void> {
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return;
    }
    if (LOOPBACK.has(host) || this.gapMs <= 0) return;
    const t = this.now();
    const at = Math.max(t, this.nextAt.get(host) ?? 0);
    this.nextAt.set(host, at + this.gapMs);
    if (this.nextAt.size > 10_000) for (const [h, n] of this.nextAt) if (n < t) this.nextAt.delete(h);
    if (at > t) await this.sleep(at - t);
  }
}
