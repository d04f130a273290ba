// A stylesheet made self-contained: every url() (images, fonts) becomes a data: URI and
// every @import is replaced by the imported sheet's own rules, each fetched through the
// caller's guarded fetcher. postcss parses the sheet; postcss-value-parser finds the url()s.
import postcss, { type AtRule, type Declaration } from 'postcss';
import valueParser from 'postcss-value-parser';
import type { ResourceFetcher } from './resources.js';

const MAX_IMPORT_DEPTH = 3;

export async function inlineCss(css: string, baseUrl: string, fetcher: ResourceFetcher, depth = 0): Promise<string> {
  let root;
  try {
    root = postcss.parse(css);
  } catch {
    return ''; // a sheet the parser cannot read would not style the copy either
  }
  const imports: AtRule[] = [];
  root.walkAtRules('import', (rule) => {
    imports.push(rule);
  });
  for (const rule of imports) {
    const target = importTarget(rule.params);
    const sheet = target && depth < MAX_IMPORT_DEPTH ? await fetcher.text(resolve(target, baseUrl)) : null;
    if (sheet) rule.replaceWith(postcss.parse(await inlineCss(sheet.text, sheet.url, fetcher, depth + 1)).nodes);
    else rule.remove();
  }
  const decls: Declaration[] = [];
  root.walkDecls((d) => {
    if (/url\(/i.test(d.value)) decls.push(d);
  });
  for (const d of decls) d.value = await inlineUrls(d.value, baseUrl, fetcher);
  return root.toString();
}

/** A style attribute's declarations with their url()s inlined. */
export async function inlineStyleAttribute(style: string, baseUrl: string, fetcher: ResourceFetcher): Promise<string> {
  if (!/url\(/i.test(style)) return style;
  const inlined = await inlineCss(`x{${style}}`, baseUrl, fetcher);
  return inlined.replace(/^x\s*\{/, '').replace(/\}\s*$/, '').trim();
}

async function inlineUrls(value: string, baseUrl: string, fetcher: ResourceFetcher): Promise<string> {
  const parsed = valueParser(value);
  const urls: valueParser.FunctionNode[] = [];
  parsed.walk((n) => {
    if (n.type === 'function' && n.value.toLowerCase() === 'url') urls.push(n);
  });
  for (const n of urls) {
    const raw = n.nodes[0]?.value ?? '';
    const data = raw.startsWith('data:') ? raw : await fetcher.dataUri(resolve(raw, baseUrl));
    // A resource that could not be kept becomes nothing rather than a request to the network.
    n.nodes = [{ type: 'string', quote: '"', value: data ?? 'data:,', sourceIndex: 0, sourceEndIndex: 0 } as valueParser.StringNode];
  }
  return valueParser.stringify(parsed.nodes);
}

function importTarget(params: string): string | null {
  const first = valueParser(params).nodes.find((n) => n.type !== 'space');
  if (!first) return null;
  if (first.type === 'string') return first.value;
  if (first.type === 'function' && first.value.toLowerCase() === 'url') return first.nodes[0]?.value ?? null;
  return null;
}

function resolve(url: string, base: string): string {
  try {
    return new URL(url, base).toString();
  } catch {
    return '';
  }
}
