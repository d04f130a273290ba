// Starts and stops the whole server: db → services → jobs → HTTP. On SIGINT/SIGTERM it
// stops accepting, drains running jobs, checkpoints the WAL and closes the file.
import { getRequestListener, type ServerType } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import { adapterErrorHandler, handleClientErrors } from './http/adapter-errors.js';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import { buildContainer, type Container } from './container.js';
import { followOtherProcesses, registerJobHandlers, startBackground, wireEvents } from './wiring.js';
import { closeStore, describeStore, openStore } from './db/store.js';
import type { WorkerEmbedder } from './embed/worker-embedder.js';
import { logModelState, startServerEmbedder } from './embed/server-embedder.js';
import { createApp } from './http/app.js';
import { createLogger } from './logger.js';
import { webMount } from './http/web.js';
import { createTurnGate, REQUESTS_PER_TURN, waitsOnModel } from './http/turn-gate.js';
import { removeServerRecord, writeServerRecord } from './client/server-records.js';
import { packageVersion } from './paths.js';

/** Room for a 10,000-character query parameter of 3-byte characters, percent-encoded. */
export const MAX_HEADER_BYTES = 128 * 1024;

export interface RunningServer {
  url: string;
  services: Container;
  close(): Promise<void>;
}

/** `embedder`: a model worker already started (the CLI starts it before loading this module); closed if the start fails. */
export async function startServer(config: Config, opts: { embedder?: WorkerEmbedder } = {}): Promise<RunningServer> {
  const log = createLogger(config.logLevel);
  // PostgreSQL out of reach at start: one line and an exit code (cli/commands/server.ts), nothing created.
  const db = await openStore(config).catch(async (e) => {
    await opts.embedder?.close();
    throw e;
  });
  const embedder = opts.embedder ?? startServerEmbedder(config, log);
  logModelState(embedder, log);
  // Listen first, so that with RHIZOME_PORT=0 (a free port) the links and the credentials
  // file name the port really bound. Requests wait for the app, which is built next.
  let app: ReturnType<typeof createApp> | undefined;
  let appReady!: () => void;
  const ready = new Promise<void>((r) => (appReady = r));
  // 10,000-character query strings (GET /links/suggestions?text=) exceed Node's default
  // 16 KB header limit once percent-encoded (up to 9 bytes a character). The adapter's own
  // 400s (request target `*`, malformed Host) and Node's parser errors leave as problem+json.
  const perTurn = config.tuning?.requestsPerTurn ?? REQUESTS_PER_TURN;
  const gate = perTurn > 0 ? createTurnGate(perTurn) : null;
  const listener = getRequestListener(async (req, env) => {
    const turn = gate?.enter(waitsOnModel(env.incoming.method, env.incoming.url));
    if (turn !== undefined) await turn;
    return (app ?? (await ready, app!)).fetch(req, env);
  }, {
    hostname: config.host,
    errorHandler: adapterErrorHandler(log),
  });
  const server: ServerType = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, listener);
  handleClientErrors(server as Server, log);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, () => resolve()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  if (config.port === 0) config = Object.freeze({ ...config, port, publicUrl: config.publicUrl.endsWith(':0') ? url : config.publicUrl });

  const services = await buildContainer({ config, db, embedder, log });
  registerJobHandlers(services);
  wireEvents(services);
  const boot = await services.tenants.bootstrap();
  if (boot) {
    const file = join(config.dataDir, 'credentials');
    writeFileSync(file, JSON.stringify({ tenant: 'default', tenant_id: boot.tenant_id, api_key: boot.api_key, api_url: config.publicUrl }, null, 2) + '\n', { mode: 0o600 });
    process.stdout.write(
      `\nCreated tenant "default". Its API key (shown once, also saved to ${file}):\n\n  ${boot.api_key}\n\n` +
        `Use it as:  Authorization: ApiKey ${boot.api_key}\n` +
        `Dashboard:  ${config.publicUrl}/  (sign in with the key)\n\n`,
    );
  }
  const recordUrl = localUrl(config.host, port);
  announce(config, recordUrl, log);
  await startBackground(services);
  const vectorFollower = config.databaseUrl ? followOtherProcesses(services, config.databaseUrl) : null;
  app = createApp(services, [webMount]);
  appReady();
  log.info(`Rhizome listening on ${url} (data: ${config.dataDir}${config.databaseUrl ? `, database: ${describeStore(config)}` : ''})`);
  if (gate) log.info(`at most ${perTurn} new requests start per event-loop turn`);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      log.info('shutting down: draining jobs, checkpointing the database');
      await new Promise<void>((r) => server.close(() => r()));
      // Each step runs even if one before it failed: the job queue above all, so that no
      // job is left `running` in the table.
      const step = async (what: string, run: () => unknown) => {
        try {
          await run();
        } catch (e) {
          log.error(`shutting down: ${what} failed`, e);
        }
      };
      await step('stopping the keyword warmer', () => services.keywordWarmer?.stop());
      await step('stopping the vector listener', () => vectorFollower?.stop());
      await step('closing the rate limiters', () => services.limiters.close());
      await step('draining the job queue', () => services.queue.stop());
      await step('stopping the model worker', () => embedder.close());
      await closeStore(db);
      removeServerRecord(config.clientConfigDir, recordUrl);
    })());
  return { url, services, close };
}

/** The URL a client on this machine uses: a wildcard listen address is reached on loopback. */
function localUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/** Tells CLIs in any folder where this server listens and which credentials file it wrote. */
function announce(config: Config, apiUrl: string, log: ReturnType<typeof createLogger>): void {
  const credentials = join(config.dataDir, 'credentials');
  try {
    const file = writeServerRecord(config.clientConfigDir, {
      api_url: apiUrl, pid: process.pid, data_dir: config.dataDir,
      ...(existsSync(credentials) ? { credentials_file: credentials } : {}),
      version: packageVersion(), started_at: new Date().toISOString(),
    });
    log.info(`dashboard: ${config.publicUrl}/ (this server is recorded in ${file} for the CLI)`);
  } catch (e) {
    log.warn(`could not record this server for the CLI in ${config.clientConfigDir}: ${(e as Error).message}`);
  }
}
