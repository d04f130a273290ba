// Examples at the end of every command's --help (commands that carry their own keep them).
import type { Command } from 'commander';

const EXAMPLES: Record<string, string[]> = {
  serve: ['rhizome serve', 'rhizome serve --port 8080 --host 0.0.0.0'],
  tenants: ['rhizome tenants create family --json'],
  'tenants create': ['rhizome tenants create family', 'rhizome tenants create family --json'],
  users: ['rhizome users add ada@example.com --tenant default'],
  'users add': ['rhizome users add ada@example.com --tenant default'],
  backup: ['rhizome backup ~/backups/rhizome-$(date +%F).db'],
  login: ['rhizome login', 'rhizome login --email ada@example.com --token TOKEN'],
  logout: ['rhizome logout'],
  keys: ['rhizome keys list', 'rhizome keys create laptop'],
  'keys list': ['rhizome keys list --json'],
  'keys create': ['rhizome keys create "work laptop"'],
  'keys revoke': ['rhizome keys revoke key_01J…'],
  node: ['rhizome node add "Grafting apples" -t trees -c "Whip and tongue in spring."', 'rhizome node list --tag trees', 'rhizome node edit nod_01J…'],
  'node add': ['rhizome node add "Grafting apples" -c "Whip and tongue in spring." -t trees,orchard --para "Orchard"', 'cat notes.md | rhizome node add "Meeting notes" -f -'],
  'node show': ['rhizome node show nod_01J…', 'rhizome node show nod_01J… --json | jq .tags'],
  'node edit': ['rhizome node edit nod_01J…                 # opens $EDITOR on Markdown with front matter', 'rhizome node edit nod_01J… --status validated --tags trees,farm'],
  'node rm': ['rhizome node rm nod_01J…'],
  link: ['rhizome link nod_A nod_B', 'rhizome link nod_A nod_B nod_C --type supports'],
  unlink: ['rhizome unlink nod_A nod_B'],
  related: ['rhizome related nod_01J… -n 10'],
  suggest: ['rhizome suggest "notes on grafting fruit trees"', 'rhizome suggest - < draft.md'],
  capture: ['rhizome capture https://example.com/article --why "for the orchard project"', 'rhizome capture ~/papers -r --wait', 'echo "call the nursery" | rhizome capture -'],
  captures: ['rhizome captures --status failed', 'rhizome captures show cap_01J…'],
  'captures list': ['rhizome captures list --status failed -n 50'],
  'captures show': ['rhizome captures show cap_01J… --json'],
  'captures retry': ['rhizome captures retry cap_01J…'],
  'captures reingest': ['rhizome captures reingest cap_01J…'],
  'captures archive': ['rhizome captures archive cap_01J…'],
  'captures unarchive': ['rhizome captures unarchive cap_01J…'],
  'captures dismiss': ['rhizome captures dismiss cap_01J…'],
  'captures rm': ['rhizome captures rm cap_01J…'],
  'captures activity': ['rhizome captures activity cap_01J…'],
  'captures provenance': ['rhizome captures provenance cap_01J… --json'],
  'captures content': ['rhizome captures content cap_01J… --markdown | less', 'rhizome captures content cap_01J… > original.pdf'],
  'captures check': ['rhizome captures check https://example.com/article && echo "seen before"'],
  para: ['rhizome para tree', 'rhizome para add project "Build a shed"', 'rhizome para show build-a-shed'],
  'para tree': ['rhizome para tree --all'],
  'para list': ['rhizome para list --category projects --status active'],
  'para show': ['rhizome para show build-a-shed', 'rhizome para show "Build a shed" --json'],
  'para add': ['rhizome para add project "Build a shed" -d "Garden shed, spring"', 'rhizome para add area Health'],
  'para edit': ['rhizome para edit build-a-shed --label "Build the shed"'],
  'para archive': ['rhizome para archive build-a-shed'],
  'para unarchive': ['rhizome para unarchive build-a-shed'],
  'para complete': ['rhizome para complete build-a-shed'],
  'para undo-complete': ['rhizome para undo-complete build-a-shed'],
  'para match': ['rhizome para match "Build a shed"'],
  'para rescan': ['rhizome para rescan'],
  tags: ['rhizome tags', 'rhizome tags rename ml machine-learning'],
  context: ['rhizome context "what do I know about grafting"', 'rhizome context --focus nod_01J… -n 10 --json'],
  health: ['rhizome health', 'rhizome health --json | jq .server.status'],
  mcp: ['rhizome mcp                                # started by an MCP client, speaks on stdio'],
  'feeds show': ['rhizome feeds show fed_01J…', 'rhizome feeds show fed_01J… --json'],
  'feeds pause': ['rhizome feeds pause fed_01J…'],
  'feeds resume': ['rhizome feeds resume fed_01J…'],
  'feeds poll': ['rhizome feeds poll fed_01J…'],
  'feeds remove': ['rhizome feeds remove fed_01J…'],
  'feeds export': ['rhizome feeds export subscriptions.opml', 'rhizome feeds export > subscriptions.opml'],
};

export function addExamples(program: Command, prefix = ''): void {
  for (const c of program.commands) {
    const path = `${prefix}${c.name()}`;
    const ex = EXAMPLES[path];
    if (ex) c.addHelpText('after', `\nExamples:\n${ex.map((l) => `  ${l}`).join('\n')}`);
    addExamples(c, `${path} `);
  }
}
