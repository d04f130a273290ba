// `rhizome doctor`: is this machine ready to run Rhizome, and can the CLI reach it?
// Exit 0 when every check passes, 1 otherwise.
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('check Node, the data folder, the database, the model, the port, the credentials and free disk')
    .option('-p, --port <port>', 'the port to check (default RHIZOME_PORT or 7777)')
    .addHelpText('after', '\nExamples:\n  rhizome doctor\n  rhizome doctor --port 8080')
    .action(async (opts: { port?: string }) => {
      const config = loadConfig(process.env, opts.port ? { port: Number(opts.port) } : {});
      const c = await import('../doctor/checks.js');
      const { checkCredentials } = await import('../doctor/credentials.js');
      const { SCHEMA_VERSION } = await import('../../db/migrate.js');
      const checks = [
        c.checkNode(),
        c.checkDataFolder(config.dataDir),
        await c.checkDatabase(config, SCHEMA_VERSION),
        c.checkModel(config),
        await c.checkPort(config.host, config.port),
        await checkCredentials(config),
        c.checkDisk(config.dataDir),
      ];
      for (const k of checks) process.stdout.write(`${k.ok ? '✓' : '✗'} ${k.label}${k.fix ? ` — ${k.fix}` : ''}\n`);
      if (checks.some((k) => !k.ok)) process.exitCode = 1;
    });
}
