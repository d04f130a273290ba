// Builds the held-out retrieval collections in bench/lab/collections/ from files on the machine
// (no download), in the BEIR shape `npm run eval` reads: corpus.jsonl {_id,title,text},
// queries.jsonl {_id,text}, qrels.tsv (query-id, corpus-id, score).
//
//   debian — dpkg's status file (/var/lib/dpkg/status): a document is a package's long
//            description titled with the package name; its query is the one-line short
//            description. Known-item, short paraphrase-like queries.
//   pydoc  — the Python standard library's docstrings (python3 introspecting ~90 modules):
//            a document is "module.name" + the docstring without its summary line; its query
//            is the summary line. Known-item, mid-length technical queries.
// A query is relevant to every document sharing its exact text. Both are the opposite
// shape of CISI's long questions, so a method tuned on CISI that only works there shows up.
// Deterministic: documents are ordered and sampled by a hash of their key, so the same
// source files give the same collections. The committed copies are what `npm run eval`
// uses; rerun this only to rebuild them (the output names the source's version).
//
//   node build.mjs && npx esbuild bench/lab/make-collections.ts --bundle --platform=node \
//     --format=esm --packages=external --outfile=dist/lab-make.mjs && node dist/lab-make.mjs
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Source {
  key: string; // stable identity (package name, qualified name)
  title: string;
  text: string;
  query: string;
}

/** Documents kept per collection: enough to rank against, small enough to commit (~1 MB each). */
export const MAX_DOCS = 1200;
const MIN_BODY = 200;

const hashOf = (s: string) => createHash('sha256').update(s).digest('hex');

export function debianSources(status: string): Source[] {
  const out: Source[] = [];
  for (const block of status.split('\n\n')) {
    const name = /^Package: (.*)$/m.exec(block)?.[1];
    const m = /^Description: (.*)\n((?: .*\n?)*)/m.exec(block);
    if (!name || !m) continue;
    const body = m[2]
      .split('\n')
      .map((l) => l.slice(1).trim())
      .map((l) => (l === '.' ? '' : l))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (body.length < MIN_BODY) continue;
    out.push({ key: name, title: name, text: body, query: m[1].trim() });
  }
  return out;
}

const PYDOC_SCRIPT = String.raw`
import importlib, inspect, json, re, sys, warnings
warnings.filterwarnings('ignore')
mods = sys.argv[1].split(',')
out = []
seen = set()
for mn in mods:
    try: m = importlib.import_module(mn)
    except Exception: continue
    for name, obj in inspect.getmembers(m):
        if name.startswith('_'): continue
        cands = [(mn + '.' + name, obj)]
        if inspect.isclass(obj) and getattr(obj, '__module__', '').startswith(mn.split('.')[0]):
            cands += [(mn + '.' + name + '.' + a, b) for a, b in inspect.getmembers(obj) if not a.startswith('_')]
        for qn, o in cands:
            d = inspect.getdoc(o)
            if not d or id(o) in seen: continue
            parts = d.strip().split('\n', 1)
            if len(parts) < 2: continue
            summary, rest = parts[0].strip(), re.sub(r'\s+', ' ', parts[1]).strip()
            if len(summary) < 15 or len(rest) < 150 or summary.endswith(':'): continue
            seen.add(id(o))
            out.append([qn, summary, rest])
print(json.dumps({'python': sys.version.split()[0], 'docs': out}))
`;

export const PYDOC_MODULES =
  'json os os.path shutil subprocess re datetime collections itertools functools pathlib argparse logging threading asyncio socket ssl http.client urllib.parse urllib.request email.message csv sqlite3 zipfile tarfile gzip hashlib hmac secrets random statistics math decimal fractions string textwrap difflib unittest doctest pdb inspect ast tokenize dis typing dataclasses enum heapq bisect array copy pickle shelve tempfile glob fnmatch time calendar locale gettext io codecs base64 binascii struct xml.etree.ElementTree html.parser configparser multiprocessing concurrent.futures queue sched selectors signal smtplib uuid weakref contextlib abc numbers operator traceback warnings'.split(' ');

export function pydocSources(): { python: string; sources: Source[] } {
  const raw = execFileSync('python3', ['-c', PYDOC_SCRIPT, PYDOC_MODULES.join(',')], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const { python, docs } = JSON.parse(raw) as { python: string; docs: [string, string, string][] };
  return { python, sources: docs.map(([qn, summary, rest]) => ({ key: qn, title: qn, text: rest, query: summary })) };
}

/** One document per distinct text, MAX_DOCS of them picked by hash; queries grouped by identical text. */
export function buildCollection(sources: Source[]) {
  const byText = new Map<string, Source>();
  for (const s of [...sources].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) if (!byText.has(s.text)) byText.set(s.text, s);
  const docs = [...byText.values()].sort((a, b) => (hashOf(a.key) < hashOf(b.key) ? -1 : 1)).slice(0, MAX_DOCS);
  docs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const corpus = docs.map((d, i) => ({ _id: String(i), title: d.title, text: d.text }));
  const byQuery = new Map<string, number[]>();
  docs.forEach((d, i) => (byQuery.get(d.query) ?? byQuery.set(d.query, []).get(d.query)!).push(i));
  const queries: { _id: string; text: string }[] = [];
  const qrels: string[] = ['query-id\tcorpus-id\tscore'];
  for (const [text, ids] of byQuery) {
    queries.push({ _id: `q${ids[0]}`, text });
    for (const j of ids) qrels.push(`q${ids[0]}\t${j}\t1`);
  }
  return { corpus, queries, qrels };
}

function write(dir: string, c: ReturnType<typeof buildCollection>, about: object): void {
  mkdirSync(dir, { recursive: true });
  const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  writeFileSync(join(dir, 'corpus.jsonl'), jsonl(c.corpus));
  writeFileSync(join(dir, 'queries.jsonl'), jsonl(c.queries));
  writeFileSync(join(dir, 'qrels.tsv'), c.qrels.join('\n') + '\n');
  writeFileSync(join(dir, 'SOURCE.json'), JSON.stringify({ ...about, docs: c.corpus.length, queries: c.queries.length }, null, 2) + '\n');
  console.log(JSON.stringify({ kind: 'collection', dir, docs: c.corpus.length, queries: c.queries.length }));
}

const root = process.argv[2] ?? 'bench/lab/collections';
const status = readFileSync('/var/lib/dpkg/status', 'utf8');
write(join(root, 'debian'), buildCollection(debianSources(status)), {
  source: 'dpkg status file of a Debian 12 machine: package long descriptions, queried by their short descriptions',
  status_sha256: hashOf(status),
});
const py = pydocSources();
write(join(root, 'pydoc'), buildCollection(py.sources), {
  source: `docstrings of the Python ${py.python} standard library (${PYDOC_MODULES.length} modules), queried by their summary lines`,
});
