// `node dist/serve-tuned.js '<json>'`: `rhizome serve` with tuning injected through the
// configuration's overrides, for the load bench and the tests that compare routes (the
// turn gate's size, the embedding levers, the keyword memory, the sign-in throttles). No
// environment variable sets these; the product's defaults live in the code that uses them.
//   {"tuning": {"requestsPerTurn": 0}, "limits": {"authFailuresPerAddress": 0}}
import { loadConfig, type RateLimits, type Tuning } from '../src/config.js';
import { startServerEmbedder } from '../src/embed/server-embedder.js';
import { createLogger } from '../src/logger.js';
import { installProcessGuards } from '../src/process-guards.js';
import { startServer } from '../src/server.js';

const given = JSON.parse(process.argv[2] ?? '{}') as { tuning?: Tuning; limits?: Partial<RateLimits> };
const base = loadConfig(process.env);
const config = loadConfig(process.env, { tuning: given.tuning, limits: { ...base.limits, ...given.limits } });
const log = createLogger(config.logLevel);
const server = await startServer(config, { embedder: startServerEmbedder(config, log) });
installProcessGuards(log, () => server.close());
const stop = () => server.close().then(() => process.exit(0), () => process.exit(1));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
