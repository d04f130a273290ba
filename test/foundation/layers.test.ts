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
  // Import and export formats are pure: bytes in, plain data out, no database.
  interop: { never: ['db', 'repos', 'services', 'jobs', 'http', 'cli', 'mcp', 'client', 'web', 'container.js', 'server.js'] },
  embed: { never: ['repos', 'services', 'http', 'cli', 'mcp', 'client', 'web'] },
  vectors: { never: ['services', 'http', 'cli', 'mcp', 'client', 'web', 'jobs'] },
  mail: { never: ['repos', 'services', 'http', 'cli', 'mcp', 'client', 'web', 'db'] },
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

  it('a feature folder uses another feature only through its services', () => {
    // src/services/<feature>/: another feature's *.service.ts is its public interface;
    // its other files (scoring, views, DTOs, job payloads) are its own business.
    const violations: string[] = [];
    const services = join(SRC, 'services');
    for (const file of files(services)) {
      const feature = relative(services, file).split('/')[0];
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/from\s+['"](\.[^'"]+)['"]/g)) {
        const target = relative(services, resolve(dirname(file), m[1]));
        const [other, ...rest] = target.split('/');
        if (target.startsWith('..') || other === feature || rest.length === 0) continue;
        if (!/\.service\.js$/.test(rest.join('/'))) violations.push(`${relative(SRC, file)} → services/${target}`);
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
