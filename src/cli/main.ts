// The `rhizome` command. Each command group lives in src/cli/commands/.
import { Command, CommanderError } from 'commander';
import { packageVersion } from '../paths.js';
import { CliError, EXIT } from './exit-codes.js';
import { registerServerCommands } from './commands/server.js';
import { toCliError } from './api-errors.js';
import { registerAccountCommands } from './commands/account.js';
import { registerCaptureCommand } from './commands/capture.js';
import { registerCapturesCommands } from './commands/captures.js';
import { registerGraphCommands } from './commands/graph.js';
import { registerAskCommands } from './commands/ask.js';
import { registerInteropCommands } from './commands/interop.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerMigrateCommand } from './commands/migrate.js';
import { registerNodeCommands } from './commands/nodes.js';
import { registerParaCommands } from './commands/para.js';
import { registerTagCommands } from './commands/tags.js';
import { registerFeedCommands } from './commands/feeds.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerOperatorCommands } from './commands/operator.js';
import { addExamples } from './examples.js';

// `rhizome health | head -1`: the reader went away; that is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

const program = new Command('rhizome')
  .description('Rhizome: a local-first personal knowledge graph')
  .version(packageVersion())
  .showHelpAfterError()
  .exitOverride();

registerServerCommands(program);
registerMigrateCommand(program);
registerDoctorCommand(program);
registerOperatorCommands(program);
// Client commands: they talk to a running server over HTTP (src/client).
registerAccountCommands(program);
registerNodeCommands(program);
registerCaptureCommand(program);
registerCapturesCommands(program);
registerParaCommands(program);
registerTagCommands(program);
registerFeedCommands(program);
registerGraphCommands(program);
registerAskCommands(program);
registerInteropCommands(program);
registerMcpCommand(program);
registerCompletionCommand(program);
addExamples(program);

try {
  await program.parseAsync(process.argv);
} catch (caught) {
  const e = toCliError(caught);
  if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : EXIT.usage);
  if (e instanceof CliError) {
    process.stderr.write(`rhizome: ${e.message}\n`);
    process.exit(e.exitCode);
  }
  process.stderr.write(`rhizome: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(EXIT.error);
}
