// `rhizome completion bash|zsh|fish`: a completion script built from the command tree
// itself (commands, subcommands and their options), so it never falls behind.
import type { Command } from 'commander';
import { CliError, EXIT } from '../exit-codes.js';

interface Entry { name: string; description: string; subs: Entry[]; options: string[] }

function tree(cmd: Command): Entry[] {
  return cmd.commands.map((c) => ({
    name: c.name(),
    description: c.description().split('\n')[0].replace(/[`$"\\]/g, '').slice(0, 80),
    subs: tree(c),
    options: c.options.map((o) => o.long ?? o.short).filter((o): o is string => !!o),
  }));
}

function bash(entries: Entry[]): string {
  const cases = entries.map((e) => `    ${e.name}) words="${[...e.subs.map((s) => s.name), ...e.options, '--help'].join(' ')}" ;;`).join('\n');
  return `# rhizome completion for bash: eval "$(rhizome completion bash)"
_rhizome() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" words
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${entries.map((e) => e.name).join(' ')} --help --version" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _rhizome rhizome
`;
}

function fish(entries: Entry[]): string {
  const lines = ['# rhizome completion for fish: rhizome completion fish | source', 'complete -c rhizome -f'];
  for (const e of entries) {
    lines.push(`complete -c rhizome -n __fish_use_subcommand -a ${e.name} -d "${e.description}"`);
    for (const s of e.subs) lines.push(`complete -c rhizome -n "__fish_seen_subcommand_from ${e.name}" -a ${s.name} -d "${s.description}"`);
    for (const o of e.options.filter((x) => x.startsWith('--'))) lines.push(`complete -c rhizome -n "__fish_seen_subcommand_from ${e.name}" -l ${o.slice(2)}`);
  }
  return lines.join('\n') + '\n';
}

export function registerCompletionCommand(program: Command): void {
  program
    .command('completion <shell>')
    .description('print a shell completion script (bash, zsh or fish)')
    .addHelpText('after', '\nExamples:\n  eval "$(rhizome completion bash)"        # in ~/.bashrc\n  eval "$(rhizome completion zsh)"         # in ~/.zshrc\n  rhizome completion fish > ~/.config/fish/completions/rhizome.fish')
    .action((shell: string) => {
      const entries = tree(program);
      if (shell === 'bash') process.stdout.write(bash(entries));
      else if (shell === 'zsh') process.stdout.write(`# rhizome completion for zsh (through bashcompinit)\nautoload -U +X bashcompinit && bashcompinit\n${bash(entries)}`);
      else if (shell === 'fish') process.stdout.write(fish(entries));
      else throw new CliError(`unknown shell "${shell}": give bash, zsh or fish`, EXIT.usage);
    });
}
