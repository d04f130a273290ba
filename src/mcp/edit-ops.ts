// edit_node's operations on a markdown body: append, prepend, find-and-replace with an
// expected count, and replace the section under a heading. Pure functions: errors are thrown
// as plain Errors (the tool turns them into isError results) and the body is never half-edited.
export type EditOp =
  | { operation: 'append'; content: string }
  | { operation: 'prepend'; content: string }
  | { operation: 'find_replace'; find: string; content: string; expected_count?: number }
  | { operation: 'replace_section'; heading: string; content: string };

export function applyEdit(body: string, op: EditOp): string {
  switch (op.operation) {
    case 'append':
      return body ? `${body.replace(/\n*$/, '')}\n\n${op.content}` : op.content;
    case 'prepend':
      return body ? `${op.content.replace(/\n*$/, '')}\n\n${body}` : op.content;
    case 'find_replace': {
      if (!op.find) throw new Error('find must not be empty');
      const count = body.split(op.find).length - 1;
      const expected = op.expected_count ?? 1;
      if (count !== expected) throw new Error(`found "${op.find}" ${count} time(s), expected ${expected}; nothing was changed`);
      return body.split(op.find).join(op.content);
    }
    case 'replace_section':
      return replaceSection(body, op.heading, op.content);
  }
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

/** Replaces what follows the heading up to the next heading of the same or a higher level. */
function replaceSection(body: string, heading: string, content: string): string {
  const want = heading.replace(/^#+\s*/, '').trim().toLowerCase();
  const lines = body.split('\n');
  let fence = false;
  const headings: { line: number; level: number; text: string }[] = [];
  lines.forEach((l, i) => {
    if (/^\s*(```|~~~)/.test(l)) fence = !fence;
    const m = !fence && HEADING.exec(l);
    if (m) headings.push({ line: i, level: m[1].length, text: m[2].trim().toLowerCase() });
  });
  const hits = headings.filter((h) => h.text === want);
  if (hits.length === 0) throw new Error(`no heading "${heading}" in the node; nothing was changed`);
  if (hits.length > 1) throw new Error(`${hits.length} headings "${heading}" in the node; nothing was changed`);
  const h = hits[0];
  const next = headings.find((x) => x.line > h.line && x.level <= h.level);
  const end = next ? next.line : lines.length;
  const replacement = content.replace(/\n*$/, '').split('\n');
  return [...lines.slice(0, h.line + 1), ...replacement, ...(next ? [''] : []), ...lines.slice(end)].join('\n');
}
