// Minimal levelled logger to stderr (stdout stays clean for CLI output and MCP stdio).
export interface Logger {
  error(msg: string, err?: unknown): void;
  /** Something an operator should see (throttling, a full disk), shown at the `error` level and above. */
  warn(msg: string): void;
  info(msg: string): void;
  debug(msg: string): void;
}

const LEVELS = { silent: 0, error: 1, info: 2, debug: 3 } as const;

export function createLogger(level: keyof typeof LEVELS = 'info', write: (s: string) => void = (s) => void process.stderr.write(s)): Logger {
  const n = LEVELS[level];
  const line = (tag: string, msg: string) => write(`${new Date().toISOString()} ${tag} ${msg}\n`);
  return {
    error: (msg, err) => n >= 1 && line('ERROR', err ? `${msg}: ${err instanceof Error ? err.stack ?? err.message : String(err)}` : msg),
    warn: (msg) => n >= 1 && line('WARN ', msg),
    info: (msg) => n >= 2 && line('INFO ', msg),
    debug: (msg) => n >= 3 && line('DEBUG', msg),
  };
}

/** Keeps what was logged, for tests (e.g. reading the magic link). */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = createLogger('debug', (s) => void lines.push(s));
  return Object.assign(log, { lines });
}
