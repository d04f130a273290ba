// login / logout (magic link → stored bearer session) and API keys.
import type { Command } from 'commander';
import { isLocalUrl, readLocalCredentials } from '../../client/auth.js';
import { loadConfig } from '../../config.js';
import { client, details, lineReader, print, printJson, table } from '../ui.js';
import { loginWithProvider, revokeSession } from './login-oidc.js';

export function registerAccountCommands(program: Command): void {
  program
    .command('login')
    .description('sign in by magic link: asks for your email, then for the token from the link; the session is stored 0600 and refreshed automatically')
    .option('--email <email>', 'email address (otherwise asked)')
    .option('--token <token>', 'the token from the link (otherwise asked)')
    .option('--provider <name>', 'sign in with an identity provider instead (opens the browser on a loopback redirect)')
    .option('--device', 'with --provider: the device authorization grant, for a machine without a browser')
    .action(async (opts: { email?: string; token?: string; provider?: string; device?: boolean }) => {
      if (opts.provider) return loginWithProvider(opts.provider, opts);
      const c = client();
      const input = lineReader();
      try {
        let token = opts.token;
        let email = opts.email;
        if (!token) {
          email ??= await input.ask('Email: ');
          await c.requestMagicLink(email);
          process.stderr.write(`If ${email} has an account on ${c.apiUrl}, a sign-in link is on its way (by default it is written to the server log).\n`);
          token = await input.ask('Token from the link: ');
        }
        await c.login(decodeURIComponent(token.replace(/^.*[?&]token=/, '')), email);
      } finally {
        input.close();
      }
      print(`Signed in to ${c.apiUrl}; session saved in ${c.store?.file}.`);
      const config = loadConfig();
      if (config.clientToken) print('Note: RHIZOME_TOKEN is set and takes precedence over this session.');
      else if (isLocalUrl(config.apiUrl) && readLocalCredentials(config.dataDir)) {
        print(`Note: the local server's key in ${config.dataDir}/credentials takes precedence over this session.`);
      }
    });

  program
    .command('logout')
    .description('sign out: revoke the stored login session at the server and forget it')
    .action(async () => {
      await revokeSession();
      const c = client();
      print(c.logout() ? `Signed out of ${c.apiUrl}.` : `No stored session for ${c.apiUrl}.`);
    });

  const keys = program.command('keys').description('API keys of your tenant (for RHIZOME_TOKEN and scripts)');
  keys
    .command('list')
    .description('list API keys (never the secret)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const list = await client().apiKeys();
      if (opts.json) return printJson(list);
      table(list.map((k) => ({ ...k, last_used_at: k.last_used_at ?? 'never' })), ['id', 'name', 'created_at', 'last_used_at'], 'No API keys.');
    });
  keys
    .command('create <name>')
    .description('create an API key; the key is shown once')
    .option('--json', 'print {"id", "name", "key", "created_at"}')
    .action(async (name: string, opts: { json?: boolean }) => {
      const k = await client().createApiKey(name);
      if (opts.json) return printJson(k);
      details([['id', k.id], ['name', k.name], ['created', k.created_at]]);
      print(`\nAPI key (shown once, store it now):\n\n  ${k.key}\n\nUse it as RHIZOME_TOKEN=${k.key}`);
    });
  keys
    .command('revoke <id>')
    .description('revoke an API key at once')
    .option('--json', 'print {"revoked": ID} as JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      await client().revokeApiKey(id);
      if (o.json) return printJson({ revoked: id });
      print(`Revoked ${id}.`);
    });
}
