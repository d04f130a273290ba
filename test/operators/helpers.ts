// An operator key for a test app: made as the CLI makes it (the service), never over HTTP.
import type { TestApp } from '../helpers/app.js';

export async function operatorAuth(t: TestApp): Promise<string> {
  const k = await t.s.operators.create('test operator');
  return `ApiKey ${k.key}`;
}

/** The value of the sample `name{…}` whose labels include all of `labels` (undefined when absent). */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}
