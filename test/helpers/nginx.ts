// A real nginx (Debian's /usr/sbin/nginx) run as the current user: a temporary prefix, a
// free port, the `http { }` body the test gives. Tests that need it skip without it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { tempDataDir } from './server-process.js';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RunningNginx {
  url: string;
  proc: ChildProcess;
  dir: string;
  errorLog(): string;
  stop(): Promise<void>;
}

/** Starts nginx with `http { <temp paths> <body(port)> }`; resolves once `url/health` answers. */
export async function startNginx(body: (port: number) => string): Promise<RunningNginx> {
  const dir = tempDataDir();
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, d));
  const port = await freePort();
  const conf = `
${process.getuid?.() === 0 ? 'user root;' : ''}
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
${body(port)}
}`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const proc = spawn(NGINX!, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited: ${err}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    proc,
    dir,
    errorLog: () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '') + err,
    stop: () => new Promise((r) => (proc.exitCode !== null ? r() : (proc.once('exit', () => r()), proc.kill('SIGQUIT')))),
  };
}
