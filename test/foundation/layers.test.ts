// Imports point downward only: cli → server → http → mcp → client; container → services →
// repos → db, with pure search code below the repositories. The faces (HTTP, MCP, CLI,
// dashboard) are thin; services know nothing of Hono routes; repositories nothing of rules;
// the client and the dashboard nothing of the server's insides. The tiers: ./layers.ts.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALSO, checkLayers, importsOf, layerViolations, sourceFiles } from './layers.js';

const SRC = resolve('src');
const temp: string[] = [];
afterAll(() => temp.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of src/ to plant violations in. */
function copyOfSrc(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-layers-'));
  temp.push(dir);
  cpSync(SRC, join(dir, 'src'), { recursive: true });
  return join(dir, 'src');
}

describe('layering', () => {
  it('every import points downward, root files of src/ included', () => {
    expect(checkLayers(SRC)).toEqual([]);
  });

  it('catches violations planted in a copy of src/: a root file importing up, search importing a repository, a folder in no tier, a repository ranking keywords', () => {
    const root = copyOfSrc();
    appendFileSync(join(root, 'clock.ts'), "\nexport { AuthService } from './services/auth/auth.service.js';\n");
    writeFileSync(join(root, 'search', 'planted.ts'), "import type { NodesRepo } from '../repos/nodes.repo.js';\nexport type Planted = NodesRepo;\n");
    writeFileSync(join(root, 'search', 'keyword', 'planted.ts'), "import type { Fts5KeywordSource } from '../../repos/keyword-source.sqlite.js';\nexport type Planted = Fts5KeywordSource;\n");
    mkdirSync(join(root, 'planted'));
    writeFileSync(join(root, 'planted', 'x.ts'), 'export const x = 1;\n');
    // A repository may implement the keyword module's adapter interface, never use its ranking.
    appendFileSync(join(root, 'repos', 'keyword-source.sqlite.ts'), "\nexport { Walk } from '../search/keyword/top-k.js';\n");
    writeFileSync(join(root, 'repos', 'pg', 'planted.ts'), "import { KeywordRanker } from '../../search/keyword/ranker.js';\nexport const planted = KeywordRanker;\n");
    expect(checkLayers(root).sort()).toEqual(
      [
        'clock.ts → services',
        'planted is in no tier',
        'search/planted.ts → repos',
        'search/keyword/planted.ts → repos',
        'repos/keyword-source.sqlite.ts → search/keyword/top-k.ts',
        'repos/pg/planted.ts → search/keyword/ranker.ts',
      ].sort(),
    );
  });

  it('refuses an import between two units of the same tier and a dynamic import upward', () => {
    const edges = [
      { file: 'db/a.ts', from: 'db', to: 'search' },
      { file: 'repos/b.ts', from: 'repos', to: 'http' },
      { file: 'repos/c.ts', from: 'repos', to: 'db' },
    ];
    expect(layerViolations(edges, ['db', 'search', 'repos', 'http'])).toEqual(['db/a.ts → search', 'repos/b.ts → http']);
  });

  it('a feature folder uses another feature only through its services', () => {
    // src/services/<feature>/: another feature's *.service.ts is its public interface;
    // its other files (scoring, views, DTOs, job payloads) are its own business.
    const violations: string[] = [];
    const services = join(SRC, 'services');
    for (const file of sourceFiles(services)) {
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
    expect(importsOf(SRC, join(SRC, 'container.ts'))).toEqual(expect.arrayContaining(['services', 'repos']));
    expect(importsOf(SRC, join(SRC, 'cli/commands/server.ts'))).toContain('server'); // dynamic import()
    expect(importsOf(SRC, join(SRC, 'services/auth/auth.service.ts'))).toContain('pkg:hono/jwt');
    expect(ALSO.services.packages!.test('pkg:hono/jwt')).toBe(false);
    expect(ALSO.services.packages!.test('pkg:hono')).toBe(true);
  });
});
