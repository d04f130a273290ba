// The only reader of process.env. One zod schema reads the whole configuration.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { oidcEnv, readOidcConfig, type OidcConfig } from './config-oidc.js';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const emptyIsUnset = (v: unknown) => (v === '' ? undefined : v);

const envSchema = z.object({
  RHIZOME_PORT: z.coerce.number().int().min(0).max(65535).default(7777),
  RHIZOME_HOST: z.string().min(1).default('127.0.0.1'),
  RHIZOME_DATA_DIR: z.string().min(1).optional(),
  RHIZOME_EMBED_MODEL: z.string().min(1).optional(),
  RHIZOME_MODEL_DIR: z.string().min(1).optional(),
  RHIZOME_PUBLIC_URL: z.string().url().optional(),
  RHIZOME_SMTP_URL: z.string().min(1).optional(),
  RHIZOME_MAIL_FROM: z.string().min(3).default('Rhizome <rhizome@localhost>'),
  RHIZOME_LLM_URL: z.string().url().optional(),
  RHIZOME_LLM_MODEL: z.string().min(1).default('llama3.2'),
  RHIZOME_LLM_KEY: z.preprocess(emptyIsUnset, z.string().min(1).optional()),
  // Model tokens (prompt + answer) per tenant per hour for generative answers (0: no budget).
  RHIZOME_LLM_TOKEN_BUDGET: z.coerce.number().int().min(0).default(200_000),
  RHIZOME_LLM_TIMEOUT_S: z.coerce.number().positive().max(3600).default(60),
  RHIZOME_ALLOW_PRIVATE_FETCH: flag,
  RHIZOME_SYNCHRONOUS: z.enum(['FULL', 'NORMAL', 'full', 'normal']).default('NORMAL').transform((s) => s.toUpperCase() as 'FULL' | 'NORMAL'),
  RHIZOME_LOG: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
  // An empty RHIZOME_TOKEN= (or API URL) counts as unset.
  RHIZOME_TOKEN: z.preprocess(emptyIsUnset, z.string().min(1).optional()),
  RHIZOME_API_URL: z.preprocess(emptyIsUnset, z.string().url().optional()),
  RHIZOME_ALLOWED_HOSTS: z.string().optional(),
  RHIZOME_CONFIG_DIR: z.string().min(1).optional(),
  XDG_CONFIG_HOME: z.string().min(1).optional(),
  RHIZOME_OPEN_URL_COMMAND: z.string().min(1).optional(),
  ...oidcEnv,
  // Expensive requests per tenant per minute (0: no budget); see docs/reliability.md.
  RHIZOME_TENANT_BUDGET: z.coerce.number().int().min(0).default(600),
  RHIZOME_TRUST_PROXY: flag,
  // The archived copy of a captured page, everything inlined, is kept up to this size (0: no copies).
  RHIZOME_ARCHIVE_MAX_BYTES: z.coerce.number().int().min(0).default(20 * 1024 * 1024),
  RHIZOME_DATABASE_URL: z.preprocess(emptyIsUnset, z.string().regex(/^postgres(ql)?:\/\//i, 'a postgres:// or postgresql:// URL').optional()),
  // Connections each process keeps to PostgreSQL (docs/storage-contract.md).
  RHIZOME_PG_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
  // Memory the tenants' in-memory vector indexes may hold in one process, in MB (docs/operators.md):
  // with the runtime and model (~190 MB) and V8's heap under load, a process stays under 1 GB.
  RHIZOME_INDEX_MEMORY_MB: z.coerce.number().int().min(16).default(384),
  // off, rm3, bo1 or method:docs:terms:weight[:minTerms] (search/keyword/feedback.ts parseFeedback checks the ranges at start-up).
  RHIZOME_SEARCH_FEEDBACK: z
    .string()
    .regex(/^\s*(?:|off|none|(?:rm3|bo1)(?::\d+(?::\d+(?::\d*\.?\d+(?::\d+)?)?)?)?)\s*$/i, 'off, rm3, bo1 or method:docs:terms:weight[:minTerms] (e.g. rm3:10:20:0.7:12)')
    .optional(),
});

/**
 * The sign-in throttles are constants in http/rate-limit.ts; these optional fields exist so
 * a test or a benchmark can inject other values through loadConfig's overrides (0 turns one
 * off). No environment variable sets them.
 */
export interface RateLimits {
  /** Failed authentications per client address per window before 429. */
  readonly authFailuresPerAddress?: number;
  /** Failed authentications per API key id per window before 429. */
  readonly authFailuresPerKey?: number;
  readonly authWindowS?: number;
  /** Sign-in links actually sent per email address per window (the request still answers 202). */
  readonly magicLinksPerEmail?: number;
  readonly magicLinksPerAddress?: number;
  readonly magicLinkWindowS?: number;
  /** Expensive requests (search, suggestions, context, captures, uploads, imports) per tenant per minute; 0 = no budget. */
  readonly tenantBudgetPerMinute: number;
  /** Take the client address from the last X-Forwarded-For entry (behind a reverse proxy). */
  readonly trustProxy: boolean;
}

/** The default embedding model: Universal Sentence Encoder lite, shipped in an npm package. */
export const DEFAULT_EMBED_MODEL = 'use-lite';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly dbPath: string;
  /** PostgreSQL instead of the SQLite file (RHIZOME_DATABASE_URL); undefined: SQLite. */
  readonly databaseUrl: string | undefined;
  /** Connections in the PostgreSQL pool of this process (RHIZOME_PG_POOL_SIZE). */
  readonly pgPoolSize: number;
  readonly embedModel: string;
  readonly modelDir: string | undefined;
  readonly publicUrl: string;
  /** Extra host names /mcp accepts in Host and Origin (DNS-rebinding protection). */
  readonly allowedHosts: readonly string[];
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly llmUrl: string | undefined;
  readonly llmModel: string;
  /** Bearer token for the model endpoint (RHIZOME_LLM_KEY), when it wants one. */
  readonly llmKey: string | undefined;
  /** Model tokens per tenant per hour for generative answers (RHIZOME_LLM_TOKEN_BUDGET; 0: none). */
  readonly llmTokenBudget: number;
  /** A generative answer must be complete within this (RHIZOME_LLM_TIMEOUT_S), else the extractive one is given. */
  readonly llmTimeoutMs: number;
  readonly allowPrivateFetch: boolean;
  readonly synchronous: 'FULL' | 'NORMAL';
  readonly logLevel: 'silent' | 'error' | 'info' | 'debug';
  readonly clientToken: string | undefined;
  readonly apiUrl: string;
  /** Whether RHIZOME_API_URL was given (else a credentials file's saved api_url may decide). */
  readonly apiUrlExplicit: boolean;
  /** Where the CLI keeps its login session (session.json, mode 0600). */
  readonly clientConfigDir: string;
  /** Identity providers for sign-in (docs/oidc.md); empty when none is configured. */
  readonly oidc: OidcConfig;
  /** CLI: the command that opens a URL for `rhizome login --provider` (else the platform's opener). */
  readonly openUrlCommand: string | undefined;
  readonly limits: RateLimits;
  /** Largest archived copy of a captured page, in bytes (RHIZOME_ARCHIVE_MAX_BYTES; 0: none kept). */
  readonly archiveMaxBytes: number;
  /** Pseudo-relevance feedback on the keyword side (RHIZOME_SEARCH_FEEDBACK: off, rm3, bo1 or method:docs:terms:weight[:minTerms]); unset: FEEDBACK_SERVED, RM3 for queries of 15+ content words (docs/search-quality.md). */
  readonly searchFeedback?: string;
  /** Memory the tenants' in-memory vector indexes may hold in this process (RHIZOME_INDEX_MEMORY_MB); the least recently used are evicted beyond it. */
  readonly indexMemoryBytes: number;
  readonly tuning?: Tuning;
}

/**
 * Tuning a test or a benchmark injects through loadConfig's overrides to compare routes
 * (bench/load/run.ts, bench/serve-tuned.ts); no environment variable sets it. Each default
 * is a constant in the code that uses it, beside the measurement that chose it.
 */
export interface Tuning {
  /** Embedding workers (2: a background one on demand); default embed/worker-embedder.ts defaultWorkers(). */
  readonly embedWorkers?: number;
  /** Queries first and batched ('priority', the default) or first come first served. */
  readonly embedScheduling?: 'priority' | 'fifo';
  /** USE-lite on onnxruntime ('onnx', the default) or TF.js's WebAssembly backend. */
  readonly useLiteRuntime?: 'onnx' | 'tfjs';
  /** Query vectors kept (0: none); default QUERY_CACHE_SIZE in services/nodes/embedding.service.ts. */
  readonly queryCache?: number;
  /** New requests the event loop starts per turn (0: no gate); default REQUESTS_PER_TURN in http/turn-gate.ts. */
  readonly requestsPerTurn?: number;
  /** Whether the keyword side keeps its terms' postings in memory (default yes; services/nodes/keyword-warmer.ts). */
  readonly keywordMemory?: boolean;
  /** A cold tenant with at most this many vectors loads its index within its first request; default LOAD_IN_REQUEST_MAX in vectors/indexes-by-use.ts. */
  readonly indexLoadInRequestMax?: number;
  /** Nodes queued for embedding per transaction after a model change; default BACKLOG_BATCH in services/nodes/embedding.service.ts. */
  readonly backlogBatch?: number;
}

/** `./data` when started from the Rhizome checkout itself, else `~/.rhizome`. */
function defaultDataDir(cwd: string): string {
  const pkg = join(cwd, 'package.json');
  if (existsSync(pkg)) {
    try {
      if (JSON.parse(readFileSync(pkg, 'utf8')).name === 'rhizome') return join(cwd, 'data');
    } catch {
      /* not our checkout */
    }
  }
  return join(homedir(), '.rhizome');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const oidc = readOidcConfig(env, e);
  const dataDir = resolve(overrides.dataDir ?? e.RHIZOME_DATA_DIR ?? defaultDataDir(process.cwd()));
  const port = overrides.port ?? e.RHIZOME_PORT;
  const host = overrides.host ?? e.RHIZOME_HOST;
  const config: Config = {
    port,
    host,
    dataDir,
    dbPath: join(dataDir, 'rhizome.db'),
    databaseUrl: e.RHIZOME_DATABASE_URL,
    pgPoolSize: e.RHIZOME_PG_POOL_SIZE,
    embedModel: e.RHIZOME_EMBED_MODEL ?? (e.RHIZOME_MODEL_DIR ? `local:${e.RHIZOME_MODEL_DIR}` : DEFAULT_EMBED_MODEL),
    modelDir: e.RHIZOME_MODEL_DIR,
    publicUrl: e.RHIZOME_PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    allowedHosts: (e.RHIZOME_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
    smtpUrl: e.RHIZOME_SMTP_URL,
    mailFrom: e.RHIZOME_MAIL_FROM,
    llmUrl: e.RHIZOME_LLM_URL,
    llmModel: e.RHIZOME_LLM_MODEL,
    llmKey: e.RHIZOME_LLM_KEY,
    llmTokenBudget: e.RHIZOME_LLM_TOKEN_BUDGET,
    llmTimeoutMs: Math.round(e.RHIZOME_LLM_TIMEOUT_S * 1000),
    allowPrivateFetch: e.RHIZOME_ALLOW_PRIVATE_FETCH,
    synchronous: e.RHIZOME_SYNCHRONOUS,
    logLevel: e.RHIZOME_LOG,
    clientToken: e.RHIZOME_TOKEN,
    apiUrl: e.RHIZOME_API_URL ?? 'http://127.0.0.1:7777',
    apiUrlExplicit: e.RHIZOME_API_URL !== undefined,
    clientConfigDir: resolve(e.RHIZOME_CONFIG_DIR ?? join(e.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'rhizome')),
    oidc,
    openUrlCommand: e.RHIZOME_OPEN_URL_COMMAND,
    limits: {
      tenantBudgetPerMinute: e.RHIZOME_TENANT_BUDGET,
      trustProxy: e.RHIZOME_TRUST_PROXY,
    },
    archiveMaxBytes: e.RHIZOME_ARCHIVE_MAX_BYTES,
    indexMemoryBytes: e.RHIZOME_INDEX_MEMORY_MB * 1024 * 1024,
    searchFeedback: e.RHIZOME_SEARCH_FEEDBACK,
    ...overrides,
  };
  return Object.freeze(config);
}
