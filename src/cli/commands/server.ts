// serve, tenants, users, backup: commands that act on the data folder itself.
// The server side (SQLite, sqlite-vec, hono, the services) is imported only when one of
// these runs, so client commands start without loading it (build.mjs splits the bundle).
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { CliError, EXIT } from '../exit-codes.js';

const withServices: typeof import('../admin.js').withServices = async (config, fn) => (await import('../admin.js')).withServices(config, fn);

async function asCliError(e: unknown): Promise<never> {
  if (e instanceof AppError) throw new CliError(e.detail, e.status === 404 ? EXIT.notFound : EXIT.usage);
  const { PgUnreachableError } = await import('../../db/pg/connect.js');
  if (e instanceof PgUnreachableError) throw new CliError(e.message, EXIT.unavailable);
  const { BackupUnsupportedError } = await import('../../db/store.js');
  if (e instanceof BackupUnsupportedError) throw new CliError(e.message, EXIT.usage);
  throw e;
}

/** A busy port is one line, before the data folder or database is touched. */
async function ensurePortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const { createServer } = await import('node:net');
  await new Promise<void>((resolve, reject) => {
    const probe = createServer()
      .once('error', (e: NodeJS.ErrnoException) =>
        reject(new CliError(e.code === 'EADDRINUSE' ? `port ${port} on ${host} is already in use (is Rhizome already running?); choose another with --port` : `cannot listen on ${host}:${port}: ${e.code ?? e.message}`, EXIT.unavailable)),
      )
      .listen(port, host, () => probe.close(() => resolve()));
  });
}

export function registerServerCommands(program: Command): void {
  program
    .command('serve')
    .description('start the Rhizome server (same as npm start)')
    .option('-p, --port <port>', 'port (default RHIZOME_PORT or 7777)')
    .option('--host <host>', 'listen address (default RHIZOME_HOST or 127.0.0.1)')
    .action(async (opts: { port?: string; host?: string }) => {
      const config = loadConfig(process.env, {
        ...(opts.port ? { port: Number(opts.port) } : {}),
        ...(opts.host ? { host: opts.host } : {}),
      });
      await ensurePortFree(config.host, config.port);
      const { createLogger } = await import('../../logger.js');
      // The model starts loading in its worker while this thread loads the server's code.
      const { startServerEmbedder } = await import('../../embed/server-embedder.js');
      const log = createLogger(config.logLevel);
      const embedder = startServerEmbedder(config, log);
      const { startServer } = await import('../../server.js');
      const { installProcessGuards } = await import('../../process-guards.js');
      const server = await startServer(config, { embedder }).catch(asCliError);
      installProcessGuards(log, () => server.close());
      const stop = () => {
        server.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });

  const tenants = program.command('tenants').description('manage tenants (acts on the data folder directly)');
  tenants
    .command('create <name>')
    .description('create a tenant and its first API key')
    .option('--json', 'print {"tenant_id", "api_key"} as JSON')
    .action(async (name: string, opts: { json?: boolean }) => {
      const out = await withServices(loadConfig(), async (s) => await s.tenants.create(name)).catch(asCliError);
      if (opts.json) process.stdout.write(JSON.stringify(out) + '\n');
      else process.stdout.write(`Created tenant "${name}" (${out.tenant_id}).\nAPI key (shown once): ${out.api_key}\n`);
    });

  const users = program.command('users').description('manage users who sign in by magic link');
  users
    .command('add <email>')
    .description('add a user (email → tenant) who can sign in by magic link')
    .requiredOption('--tenant <name>', 'tenant the user belongs to')
    .option('--json', 'print the user as JSON')
    .action(async (email: string, opts: { tenant: string; json?: boolean }) => {
      const user = await withServices(loadConfig(), async (s) => await s.auth.addUser(email, opts.tenant)).catch(asCliError);
      if (opts.json) process.stdout.write(JSON.stringify(user) + '\n');
      else process.stdout.write(`Added ${user.email} to tenant "${opts.tenant}".\n`);
    });

  program
    .command('backup <file>')
    .description('write a consistent copy of rhizome.db while the server runs (VACUUM INTO)')
    .action(async (file: string) => {
      const { existsSync } = await import('node:fs');
      if (existsSync(file)) throw new CliError(`${file} already exists; choose a new file name`, EXIT.usage);
      await withServices(loadConfig(), async (s) => await s.backup(file)).catch(asCliError);
      process.stdout.write(`Backup written to ${file}\n`);
    });
}
