// rhizome operator create-key | list-keys | revoke-key: the operator's credential for
// /api/v1/admin and /metrics. Made only here, on the server's own data folder or database
// (never over HTTP), so holding the machine is what makes an operator.
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { CliError, EXIT } from '../exit-codes.js';

const withServices: typeof import('../admin.js').withServices = async (config, fn) => (await import('../admin.js')).withServices(config, fn);

async function asCliError(e: unknown): Promise<never> {
  if (e instanceof AppError) throw new CliError(e.detail, e.status === 404 ? EXIT.notFound : EXIT.usage);
  const { PgUnreachableError } = await import('../../db/pg/connect.js');
  if (e instanceof PgUnreachableError) throw new CliError(e.message, EXIT.unavailable);
  throw e;
}

export function registerOperatorCommands(program: Command): void {
  const op = program.command('operator').description('operator keys for /api/v1/admin and /metrics (acts on the data folder or database directly)');
  op
    .command('create-key')
    .description('create an operator key (shown once); use it as "Authorization: ApiKey <key>"')
    .option('--name <name>', 'what the key is for (e.g. prometheus)', 'operator')
    .option('--json', 'print {"id", "name", "key", "created_at"} as JSON')
    .action(async (opts: { name: string; json?: boolean }) => {
      const out = await withServices(loadConfig(), (s) => s.operators.create(opts.name)).catch(asCliError);
      if (opts.json) process.stdout.write(JSON.stringify(out) + '\n');
      else process.stdout.write(`Created operator key "${out.name}" (${out.id}).\nOperator key (shown once): ${out.key}\n`);
    });
  op
    .command('list-keys')
    .description('list working operator keys (never their secrets)')
    .option('--json', 'print the list as JSON')
    .action(async (opts: { json?: boolean }) => {
      const keys = await withServices(loadConfig(), (s) => s.operators.list()).catch(asCliError);
      if (opts.json) process.stdout.write(JSON.stringify({ data: keys }) + '\n');
      else for (const k of keys) process.stdout.write(`${k.id}  ${k.name}  created ${k.created_at}  last used ${k.last_used_at ?? 'never'}\n`);
    });
  op
    .command('revoke-key <id>')
    .description('revoke an operator key (it stops working at once)')
    .action(async (id: string) => {
      await withServices(loadConfig(), (s) => s.operators.revoke(id)).catch(asCliError);
      process.stdout.write(`Revoked operator key ${id}.\n`);
    });
}
