// Last-resort handlers for the `rhizome serve` process. A rejected promise nobody awaited is
// logged and the server keeps serving: the failed operation has already ended, and nothing
// shared is left half-changed (every write is a SQLite transaction). An uncaught exception
// may have left any state behind it inconsistent, so the process logs it, shuts down
// cleanly (stops accepting, drains jobs, checkpoints) and exits non-zero, for a supervisor
// to restart it (README: "Running it under a supervisor").
import type { Logger } from './logger.js';

export const CRASH_EXIT_CODE = 70; // EX_SOFTWARE

export function installProcessGuards(log: Logger, shutdown: () => Promise<void>): void {
  process.on('unhandledRejection', (reason) => {
    log.error('unhandled promise rejection (the server keeps serving)', reason);
  });
  let crashing = false;
  process.on('uncaughtException', (err) => {
    log.error('uncaught exception: shutting down so a supervisor can restart a clean process', err);
    if (crashing) return;
    crashing = true;
    const hardStop = setTimeout(() => process.exit(CRASH_EXIT_CODE), 10_000);
    hardStop.unref();
    void shutdown().finally(() => process.exit(CRASH_EXIT_CODE));
  });
}
