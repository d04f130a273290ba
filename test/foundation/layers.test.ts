// Imports point downward only: http/cli/mcp → services → repos → db. The faces (HTTP, MCP,
// CLI, dashboard) are thin; services know nothing of Hono routes; repositories nothing of
// rules; the client and the dashboard nothing of the server's insides.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
  return specs.map((s) => (s.startsWith('.') ? relative(SRC, resolve(dirname(file), s)).split('/')[0] : `pkg:${s}`));
}

const RULES: Record<string, { never: string[]; packages?: RegExp }> = {
  repos: { never: ['services', 'http', 'cli', 'mcp', 'client', 'web', 'jobs'] },
  db: { never: ['repos', 'services', 'http', 'cli', 'mcp', 'client', 'web'] },
  services: { never: ['http', 'cli', 'mcp', 'client', 'web'], packages: /^pkg:(hono$|hono\/(?!jwt)|@hono\/node-server|@modelcontextprotocol)/ },
  search: { never: ['services', 'http', 'cli', 'mcp', 'client', 'web'] },
  ingest: { never: ['services', 'http', 'cli', 'mcp', 'client', 'web'] },
  embed: { never: ['repos', 'services', 'http', 'cli', 'mcp', 'client', 'web'] },
  jobs: { never: ['services', 'http', 'cli', 'mcp', 'client', 'web'] },
  client: { never: ['repos', 'services', 'http', 'db', 'jobs', 'embed', 'search', 'ingest', 'container.js', 'server.js'] },
  web: { never: ['repos', 'services', 'http', 'db', 'jobs', 'embed', 'search', 'ingest', 'cli', 'mcp', 'container.js', 'server.js'] },
};

describe('layering', () => {
  it('every import points downward', () => {
    const violations: string[] = [];
    for (const file of files(SRC)) {
      const layer = relative(SRC, file).split('/')[0];
      const rule = RULES[layer];
      if (!rule) continue;
      for (const target of imports(file)) {
        if (rule.never.includes(target) || (rule.packages && rule.packages.test(target))) violations.push(`${relative(SRC, file)} → ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('sees the imports it checks (relative, dynamic and packages)', () => {
    expect(imports(join(SRC, 'container.ts'))).toEqual(expect.arrayContaining(['services', 'repos']));
    expect(imports(join(SRC, 'cli/commands/server.ts'))).toContain('server.js'); // dynamic import()
    expect(imports(join(SRC, 'services/auth/auth.service.ts'))).toContain('pkg:hono/jwt');
    expect(RULES.services.packages!.test('pkg:hono/jwt')).toBe(false);
    expect(RULES.services.packages!.test('pkg:hono')).toBe(true);
  });
});
