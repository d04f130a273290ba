// Output helpers shared by the client commands: tables for people, JSON for scripts,
// progress bars on stderr, and the API client built from the environment.
import cliProgress from 'cli-progress';
import { createInterface } from 'node:readline/promises';
import { RhizomeClient } from '../client/client.js';
import { loadConfig } from '../config.js';
import { CliError, EXIT } from './exit-codes.js';

export function client(): RhizomeClient {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    throw new CliError(e instanceof Error ? e.message : String(e), EXIT.usage);
  }
  return RhizomeClient.fromConfig(config);
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function print(text = ''): void {
  process.stdout.write(text + '\n');
}

const width = () => Math.max(60, process.stdout.columns || 120);

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.join(', ');
  return String(v).replace(/\s+/g, ' ');
}

/**
 * A plain-text table. On a terminal the widest column is shortened to fit; into a pipe or
 * a file nothing is cut (full ids, whole titles).
 */
export function table(rows: Array<Record<string, unknown>>, columns: string[], empty = '(nothing)'): void {
  if (!rows.length) return print(empty);
  const data = rows.map((r) => columns.map((c) => cell(r[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...data.map((d) => d[i].length)));
  const total = widths.reduce((a, b) => a + b + 2, 0);
  const over = total - width();
  if (over > 0 && process.stdout.isTTY) {
    const widest = widths.indexOf(Math.max(...widths));
    widths[widest] = Math.max(10, widths[widest] - over);
  }
  const fit = (s: string, w: number) => (s.length > w ? `${s.slice(0, w - 1)}…` : s.padEnd(w));
  const line = (cells: string[]) => cells.map((s, i) => fit(s, widths[i])).join('  ').trimEnd();
  print(line(columns.map((c) => c.toUpperCase())));
  for (const d of data) print(line(d));
}

/** Key/value lines for one record. */
export function details(pairs: Array<[string, unknown]>): void {
  const w = Math.max(...pairs.map(([k]) => k.length));
  for (const [k, v] of pairs) if (v !== undefined && v !== null && v !== '') print(`${`${k}:`.padEnd(w + 2)}${cell(v)}`);
}

/** A progress bar on stderr, only when stderr is a terminal (logs and pipes stay clean). */
export function progressBar(total: number, label: string): cliProgress.SingleBar | undefined {
  if (!total || !process.stderr.isTTY) return undefined;
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} {status}`, stream: process.stderr, hideCursor: false, clearOnComplete: false, },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { status: '' });
  return bar;
}

export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('(reading from stdin; end with Ctrl-D)\n');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads lines from stdin one by one (works both on a terminal and on a pipe). */
export function lineReader() {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  return {
    async ask(question: string): Promise<string> {
      process.stderr.write(question);
      const next = await lines.next();
      if (next.done) throw new CliError('no answer on stdin', EXIT.usage);
      return String(next.value).trim();
    },
    close: () => rl.close(),
  };
}

export function intOption(name: string, min: number, max: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new CliError(`${name} must be an integer from ${min} to ${max}`, EXIT.usage);
    return n;
  };
}

export function choice<T extends string>(name: string, allowed: readonly T[]) {
  return (v: string): T => {
    if (!allowed.includes(v as T)) throw new CliError(`${name} must be one of: ${allowed.join(', ')}`, EXIT.usage);
    return v as T;
  };
}

export const collect = (v: string, prev: string[] = []) => [...prev, ...v.split(',').map((s) => s.trim()).filter(Boolean)];
