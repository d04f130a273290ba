// The layer checker test/foundation/layers.test.ts runs on src/ (and on planted copies, to
// show it catches what it should). Every file belongs to a unit: its top folder under src/,
// or, for a file at the root of src/, its own name (config, container, server, ...). Every
// unit sits in one tier; a unit imports only units in lower tiers, never one beside it or
// above it. A unit in no tier is itself a violation, so a new folder or root file cannot
// slip past unchecked.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Bottom first. Each line may import anything on the lines above it, nothing on its own or below. */
export const TIERS: readonly (readonly string[])[] = [
  ['clock', 'ids', 'errors', 'paths', 'logger', 'process-owner', 'config-oidc', 'digests'],
  ['config', 'process-guards'],
  ['db', 'search', 'schemas', 'mail'], // search is pure ranking code over data an adapter hands it
  ['repos'],
  ['vectors'],
  ['embed'],
  ['ingest'],
  ['interop', 'jobs'],
  ['services', 'transfer'],
  ['container'], // builds the services
  ['wiring'],
  ['client'],
  ['web', 'mcp'],
  ['http'],
  ['server'], // the composition root
  ['cli'],
];

/** Further limits beside the tiers: the sides that must not know the server's insides, and package rules. */
export const ALSO: Record<string, { never?: string[]; packages?: RegExp }> = {
  services: { packages: /^pkg:(hono$|hono\/(?!jwt)|@hono\/node-server|@modelcontextprotocol)/ },
  // Import and export formats are pure: bytes in, plain data out, no database.
  interop: { never: ['db', 'repos', 'jobs', 'embed', 'vectors', 'config'] },
  client: { never: ['repos', 'services', 'db', 'jobs', 'embed', 'search', 'ingest', 'container', 'wiring', 'vectors'] },
  web: { never: ['repos', 'services', 'db', 'jobs', 'embed', 'search', 'ingest', 'container', 'wiring', 'vectors', 'config'] },
};

/**
 * Folders a unit may reach only through the named files: a repository feeds the keyword
 * module through its adapter interface and never imports its ranking (search/keyword/).
 */
export const ONLY_THROUGH: { from: string; into: string; only: string[] }[] = [{ from: 'repos', into: 'search/keyword/', only: ['search/keyword/source.ts'] }];

export interface ImportEdge {
  file: string; // relative to the source root
  from: string;
  to: string; // a unit, or pkg:<name>
}

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

/** The unit of a path relative to the source root: its first folder, or a root file's name without extension. */
export function unitOf(rel: string): string {
  const [first, ...rest] = rel.split('/');
  return rest.length ? first : first.replace(/\.(tsx?|jsx?)$/, '');
}

/** The files (relative to the root, .ts for .js) a file imports by relative path. */
export function importPaths(root: string, file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
  return specs.filter((s) => s.startsWith('.')).map((s) => relative(root, resolve(dirname(file), s)).replace(/\.js$/, '.ts'));
}

export function importsOf(root: string, file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
  return specs.map((s) => (s.startsWith('.') ? unitOf(relative(root, resolve(dirname(file), s))) : `pkg:${s}`));
}

/** Imports into a folder that a unit may reach only through some of its files (ONLY_THROUGH). */
export function throughViolations(root: string, rules = ONLY_THROUGH): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(root)) {
    const rel = relative(root, file);
    for (const rule of rules) {
      if (unitOf(rel) !== rule.from) continue;
      for (const target of importPaths(root, file)) if (target.startsWith(rule.into) && !rule.only.includes(target)) out.push(`${rel} → ${target}`);
    }
  }
  return out;
}

export function importGraph(root: string): ImportEdge[] {
  return sourceFiles(root).flatMap((file) => {
    const rel = relative(root, file);
    const from = unitOf(rel);
    return importsOf(root, file)
      .filter((to) => to !== from)
      .map((to) => ({ file: rel, from, to }));
  });
}

export function layerViolations(edges: ImportEdge[], units: string[], tiers = TIERS, also = ALSO): string[] {
  const tierOf = new Map<string, number>();
  tiers.forEach((line, i) => line.forEach((u) => tierOf.set(u, i)));
  const out = new Set<string>();
  for (const u of units) if (!tierOf.has(u)) out.add(`${u} is in no tier`);
  for (const e of edges) {
    const extra = also[e.from];
    if (e.to.startsWith('pkg:')) {
      if (extra?.packages?.test(e.to)) out.add(`${e.file} → ${e.to}`);
      continue;
    }
    const a = tierOf.get(e.from);
    const b = tierOf.get(e.to);
    if (a === undefined || b === undefined) continue; // reported above, or a path outside the root
    if (b >= a || extra?.never?.includes(e.to)) out.add(`${e.file} → ${e.to}`);
  }
  return [...out];
}

/** Checks a source tree: every unit placed, every import pointing down. */
export function checkLayers(root: string): string[] {
  const units = [...new Set(sourceFiles(root).map((f) => unitOf(relative(root, f))))];
  return [...layerViolations(importGraph(root), units), ...throughViolations(root)];
}
