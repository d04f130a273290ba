# Builds a small held-out retrieval collection from this machine's dpkg status file
# (no download): docs = package long descriptions, queries = the one-line short
# descriptions, relevant = every package with that
# same short description. A known-item task with short, paraphrase-like
# queries: the opposite shape of CISI's long questions, so a method tuned on CISI that
# only works there shows up here.
import json, os, re, sys
out = sys.argv[1] if len(sys.argv) > 1 else '/tmp/rz-eval/debian'
os.makedirs(out, exist_ok=True)
blocks = open('/var/lib/dpkg/status').read().split('\n\n')
pk = []
for b in blocks:
    name = re.search(r'^Package: (.*)$', b, re.M)
    src = re.search(r'^Source: (\S+)', b, re.M)
    m = re.search(r'^Description: (.*)\n((?: .*\n?)*)', b, re.M)
    if not name or not m: continue
    lines = [l[1:] for l in m.group(2).splitlines()]
    body = ' '.join('' if l.strip() == '.' else l.strip() for l in lines)
    body = re.sub(r'\s+', ' ', body).strip()
    if len(body) < 200: continue
    pk.append({'name': name.group(1), 'src': (src.group(1) if src else name.group(1)),
               'short': m.group(1).strip(), 'body': body})
# Docs with identical long text are indistinguishable: keep one per body.
seen = {}
docs = []
for p in pk:
    if p['body'] in seen: continue
    seen[p['body']] = p
    docs.append(p)
with open(f'{out}/corpus.jsonl', 'w') as f:
    for i, p in enumerate(docs):
        # The package name is a title a user would give a note about it.
        f.write(json.dumps({'_id': str(i), 'title': p['name'], 'text': p['body']}) + '\n')
qs = {}
with open(f'{out}/queries.jsonl', 'w') as f, open(f'{out}/qrels.tsv', 'w') as g:
    g.write('query-id\tcorpus-id\tscore\n')
    for i, p in enumerate(docs):
        q = p['short']
        if q in qs: continue  # same short text for several packages: one query, all relevant
        qs[q] = str(i)
        f.write(json.dumps({'_id': str(i), 'text': q}) + '\n')
        rel = {j for j, d in enumerate(docs) if d['short'] == q}
        for j in sorted(rel): g.write(f'{i}\t{j}\t1\n')
print(len(docs), 'docs', len(qs), 'queries')
