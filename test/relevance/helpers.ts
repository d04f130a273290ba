// Shared by the relevance tests: a 26-note notebook about baking, gardening, money, code
// and travel, loaded through the API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';

export const NOTEBOOK: [string, string][] = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'notebook-26.json'), 'utf8'));

export async function loadNotebook(t: TestApp, auth?: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [title, content] of NOTEBOOK) {
    const res = await t.req('POST', '/api/v1/nodes', { title, content }, auth);
    expect(res.status).toBe(201);
    ids.set(title, (await res.json()).id);
  }
  await t.s.queue.idle();
  return ids;
}

export interface Hit {
  id: string;
  title: string;
  match_provenance?: { keyword: boolean; semantic: boolean; score: number };
  highlights?: { field: string; snippet: string; matches: [number, number][] }[];
}

export async function search(t: TestApp, query: string, mode = 'hybrid', auth?: string, extra = ''): Promise<{ data: Hit[]; total: number; total_matches?: number }> {
  const res = await t.req('GET', `/api/v1/nodes?mode=${mode}&query=${encodeURIComponent(query)}${extra}`, undefined, auth);
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}
