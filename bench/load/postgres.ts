// The seeded notebook on PostgreSQL for the load bench's PostgreSQL targets. The SQLite data
// folder seeded once through the API (the real model's vectors) is copied into a template
// database by `rhizome migrate --to`, as an operator moves a notebook; every run then starts
// from a fresh copy of it (CREATE DATABASE … TEMPLATE, seconds), so SQLite and PostgreSQL
// serve the same notes, vectors and key in one run. RHIZOME_LOAD_DATABASE_URL names a server
// on which the bench may create and drop databases; it drops every one it made.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connectPg } from '../../src/db/pg/connect.js';

const execFileP = promisify(execFile);

export class PgSeeds {
  private template: string | undefined;
  private readonly made: string[] = [];
  private runs = 0;
  private readonly prefix = `rz_load_${process.pid}`;

  constructor(
    private readonly adminUrl: string,
    private readonly root: string,
    private readonly seededDir: string,
  ) {}

  /** A database of its own holding the seeded notebook, and how to drop it. */
  async fresh(): Promise<{ url: string; drop: () => Promise<void> }> {
    const template = await this.seeded();
    const name = `${this.prefix}_run${++this.runs}`;
    await this.admin(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    this.made.push(name);
    return { url: this.urlOf(name), drop: () => this.drop(name) };
  }

  /**
   * A data folder for a process on PostgreSQL: the seeded folder's credentials and secrets,
   * without its SQLite file (nothing may read the notebook from there).
   */
  dataDir(): string {
    const to = mkdtempSync(join(tmpdir(), 'rhizome-load-pg-'));
    cpSync(this.seededDir, to, { recursive: true, filter: (src) => !/rhizome\.db(-wal|-shm)?$/.test(src) });
    return to;
  }

  /** Drops every database this bench made. */
  async close(): Promise<void> {
    for (const name of [...this.made].reverse()) await this.drop(name);
  }

  private async seeded(): Promise<string> {
    if (this.template) return this.template;
    const name = `${this.prefix}_seed`;
    await this.admin(`CREATE DATABASE ${name}`);
    this.made.push(name);
    const dir = mkdtempSync(join(tmpdir(), 'rhizome-load-migrate-'));
    try {
      await execFileP(process.execPath, [join(this.root, 'bin/rhizome.js'), 'migrate', '--to', this.urlOf(name), '--sqlite', join(this.seededDir, 'rhizome.db'), '--json'], {
        env: { ...process.env, RHIZOME_DATA_DIR: dir },
        maxBuffer: 16 * 1024 * 1024,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    this.template = name;
    return name;
  }

  private async drop(name: string): Promise<void> {
    const i = this.made.indexOf(name);
    if (i < 0) return;
    this.made.splice(i, 1);
    await this.admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }

  private urlOf(name: string): string {
    const u = new URL(this.adminUrl);
    u.pathname = `/${name}`;
    return u.toString();
  }

  private async admin(statement: string): Promise<void> {
    const c = await connectPg(this.adminUrl);
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  }
}
