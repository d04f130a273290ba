# Second held-out collection, made offline from the Python standard library's docstrings:
# docs = "module.name" + the docstring without its summary line, queries = the summary
# line. Known-item, mid-length technical queries, a vocabulary unlike CISI's.
import importlib, inspect, json, os, pkgutil, re, sys, warnings
warnings.filterwarnings('ignore')
out = sys.argv[1] if len(sys.argv) > 1 else '/tmp/rz-eval/pydoc'
os.makedirs(out, exist_ok=True)
mods = ['json', 'os', 'os.path', 'shutil', 'subprocess', 're', 'datetime', 'collections', 'itertools',
        'functools', 'pathlib', 'argparse', 'logging', 'threading', 'asyncio', 'socket', 'ssl', 'http.client',
        'urllib.parse', 'urllib.request', 'email.message', 'csv', 'sqlite3', 'zipfile', 'tarfile', 'gzip',
        'hashlib', 'hmac', 'secrets', 'random', 'statistics', 'math', 'decimal', 'fractions', 'string', 'textwrap',
        'difflib', 'unittest', 'doctest', 'pdb', 'inspect', 'ast', 'tokenize', 'dis', 'typing', 'dataclasses',
        'enum', 'heapq', 'bisect', 'array', 'copy', 'pickle', 'shelve', 'tempfile', 'glob', 'fnmatch', 'time',
        'calendar', 'locale', 'gettext', 'io', 'codecs', 'base64', 'binascii', 'struct', 'xml.etree.ElementTree',
        'html.parser', 'configparser', 'multiprocessing', 'concurrent.futures', 'queue', 'sched', 'selectors',
        'signal', 'smtplib', 'uuid', 'weakref', 'contextlib', 'abc', 'numbers', 'operator', 'traceback', 'warnings']
docs, seen = [], set()
for mn in mods:
    try: m = importlib.import_module(mn)
    except Exception: continue
    for name, obj in inspect.getmembers(m):
        if name.startswith('_'): continue
        cands = [(f'{mn}.{name}', obj)]
        if inspect.isclass(obj) and getattr(obj, '__module__', '').startswith(mn.split('.')[0]):
            cands += [(f'{mn}.{name}.{a}', b) for a, b in inspect.getmembers(obj) if not a.startswith('_')]
        for qn, o in cands:
            d = inspect.getdoc(o)
            if not d or id(o) in seen: continue
            parts = d.strip().split('\n', 1)
            if len(parts) < 2: continue
            summary, rest = parts[0].strip(), re.sub(r'\s+', ' ', parts[1]).strip()
            if len(summary) < 15 or len(rest) < 150 or summary.endswith(':'): continue
            seen.add(id(o))
            docs.append((qn, summary, rest))
uniq = {}
for qn, s, r in docs: uniq.setdefault(r, (qn, s, r))
docs = list(uniq.values())
with open(f'{out}/corpus.jsonl', 'w') as f:
    for i, (qn, s, r) in enumerate(docs): f.write(json.dumps({'_id': str(i), 'title': qn, 'text': r}) + '\n')
by_summary = {}
for i, (_, s, _) in enumerate(docs): by_summary.setdefault(s, []).append(i)
with open(f'{out}/queries.jsonl', 'w') as f, open(f'{out}/qrels.tsv', 'w') as g:
    g.write('query-id\tcorpus-id\tscore\n')
    for s, ids in by_summary.items():
        f.write(json.dumps({'_id': str(ids[0]), 'text': s}) + '\n')
        for j in ids: g.write(f'{ids[0]}\t{j}\t1\n')
print(len(docs), 'docs', len(by_summary), 'queries')
