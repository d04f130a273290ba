// rhizome migrate: copies the whole database between SQLite and PostgreSQL (every table,
// vectors and uploads), verifying row counts and per-table checksums before it commits.
// The database code is imported only when the command runs.
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { CliError, EXIT } from '../exit-codes.js';
import { progressBar } from '../ui.js';

interface MigrateOpts {
  to?: string;
  from?: string;
  sqlite?: string;
  json?: boolean;
}

const isPg = (s: string) => /^postgres(ql)?:\/\//i.test(s);

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('copy the database to an empty PostgreSQL (--to) or from PostgreSQL into a new SQLite file (--from)')
    .option('--to <url>', 'postgres://user@host:port/db: copy the SQLite database into this empty PostgreSQL database')
    .option('--from <url>', 'postgres://user@host:port/db: copy this PostgreSQL database into a new SQLite file')
    .option('--sqlite <file>', 'the SQLite file (default: rhizome.db in the data folder)')
    .option('--json', 'print each table with its row count and checksum as JSON')
    .addHelpText(
      'after',
      `
Examples:
  rhizome migrate --to postgres://rhizome@db.internal:5432/rhizome
  rhizome migrate --to postgres://rhizome@localhost/rhizome --sqlite ~/backups/rhizome.db
  rhizome migrate --from postgres://rhizome@db.internal/rhizome --sqlite ./rhizome-copy.db --json`,
    )
    .action(async (opts: MigrateOpts) => {
      if (!!opts.to === !!opts.from) throw new CliError('give exactly one of --to <postgres-url> or --from <postgres-url>', EXIT.usage);
      const url = (opts.to ?? opts.from)!;
      if (!isPg(url)) throw new CliError(`--${opts.to ? 'to' : 'from'} takes a postgres:// URL`, EXIT.usage);
      const sqlite = opts.sqlite ?? loadConfig().dbPath;
      const { sqliteToPostgres } = await import('../../transfer/to-postgres.js');
      const { postgresToSqlite } = await import('../../transfer/to-sqlite.js');
      const { TransferError } = await import('../../transfer/transfer-error.js');
      const { PgUnreachableError, describeUrl } = await import('../../db/pg/connect.js');
      let bar: ReturnType<typeof progressBar>;
      const progress = {
        start: (total: number) => (bar = progressBar(total, 'migrate')),
        tick: () => bar?.increment(),
        stop: () => bar?.stop(),
      };
      try {
        const report = opts.to ? await sqliteToPostgres(sqlite, url, progress) : await postgresToSqlite(url, sqlite, progress);
        if (opts.json) {
          process.stdout.write(JSON.stringify({ from: opts.to ? sqlite : describeUrl(url), to: opts.to ? describeUrl(url) : sqlite, tables: report }) + '\n');
        } else {
          const rows = report.reduce((s, t) => s + t.rows, 0);
          const where = opts.to ? `${sqlite} → ${describeUrl(url)}` : `${describeUrl(url)} → ${sqlite}`;
          process.stdout.write(`Copied ${rows} rows in ${report.length} tables (${where}); row counts and checksums verified.\n`);
        }
      } catch (e) {
        if (e instanceof PgUnreachableError) throw new CliError(e.message, EXIT.unavailable);
        if (e instanceof TransferError) throw new CliError(e.message, e.kind === 'usage' ? EXIT.usage : e.kind === 'conflict' ? EXIT.conflict : EXIT.error);
        const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
        throw new CliError(`migrate failed, nothing was kept: ${msg}`, EXIT.error);
      }
    });
}
