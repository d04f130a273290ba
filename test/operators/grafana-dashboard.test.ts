// docs/grafana-rhizome.json cannot drift from the metrics: every series its queries name is
// one a real /metrics scrape declares, and every metric Rhizome declares is on a panel.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { operatorAuth } from './helpers.js';

let t: TestApp;
let declared: Map<string, string>;

beforeAll(async () => {
  t = await makeTestApp();
  const op = await operatorAuth(t);
  await t.req('GET', '/api/v1/nodes');
  await t.req('GET', '/metrics', undefined, op); // process metrics are registered on the first scrape
  const text = await (await t.req('GET', '/metrics', undefined, op)).text();
  declared = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
});
afterAll(() => t.close());

const dashboard = JSON.parse(readFileSync('docs/grafana-rhizome.json', 'utf8')) as {
  panels: Array<{ type: string; targets?: Array<{ expr: string }> }>;
  templating: { list: Array<{ definition?: string }> };
};
const exprs = [...dashboard.panels.flatMap((p) => (p.targets ?? []).map((x) => x.expr)), ...dashboard.templating.list.flatMap((v) => v.definition ?? [])];
const named = new Set(exprs.flatMap((e) => [...e.matchAll(/\b((?:rhizome|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1])));

it('queries only series that /metrics declares', () => {
  expect(named.size).toBeGreaterThan(10);
  const unknown = [...named].filter((n) => {
    const base = n.replace(/_(bucket|count|sum)$/, '');
    return !(declared.get(n) || (base !== n && declared.get(base) === 'histogram'));
  });
  expect(unknown).toEqual([]);
});

it("shows every metric of Rhizome's own", () => {
  const own = [...declared.keys()].filter((n) => n.startsWith('rhizome_'));
  const shown = [...named].map((n) => n.replace(/_(bucket|count|sum)$/, ''));
  expect(own.filter((n) => !shown.includes(n))).toEqual([]);
});
