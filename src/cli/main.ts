// The `rhizome` command. Each command group lives in src/cli/commands/.
import { Command, CommanderError } from 'commander';
import { packageVersion } from '../paths.js';
import { CliError, EXIT } from './exit-codes.js';
import { registerServerCommands } from './commands/server.js';

const program = new Command('rhizome')
  .description('Rhizome: a local-first personal knowledge graph')
  .version(packageVersion())
  .showHelpAfterError()
  .exitOverride();

registerServerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : EXIT.usage);
  if (e instanceof CliError) {
    process.stderr.write(`rhizome: ${e.message}\n`);
    process.exit(e.exitCode);
  }
  process.stderr.write(`rhizome: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(EXIT.error);
}
