// A local webhook receiver: verifies every request with the Standard Webhooks reference
// library (signature, and the timestamp within its 5-minute tolerance), remembers what
// arrived, and answers what the test scripts (500 then 200, a hang...).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: number;
  type: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  verified: boolean;
}

export interface Receiver {
  url: string;
  /** Verify with this secret (a failed check answers 401); null: accept without checking. */
  secret: string | null;
  /** Every request, in order (verified or not). */
  got: Received[];
  /** First delivery of each webhook-id (what a deduplicating receiver keeps). */
  unique(): Received[];
  /** Status to answer for the nth request (0-based); default 200. Or a promise to hang on. */
  answer: (n: number, r: Received) => number | Promise<number>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const rec: Receiver = {
    url: '',
    secret: null,
    got: [],
    unique() {
      const seen = new Set<string>();
      return this.got.filter((g) => g.verified && !seen.has(g.id) && seen.add(g.id));
    },
    answer: () => 200,
    close: async () => {},
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      try {
        if (rec.secret) {
          new Webhook(rec.secret).verify(raw, req.headers as Record<string, string>);
          verified = true;
        }
      } catch {
        verified = false;
      }
      const r: Received = {
        id: String(req.headers['webhook-id']),
        timestamp: Number(req.headers['webhook-timestamp']),
        type: JSON.parse(raw).type,
        body: JSON.parse(raw),
        verified,
      };
      const n = rec.got.length;
      rec.got.push(r);
      const status = await rec.answer(n, r);
      res.writeHead(verified || !rec.secret ? status : 401).end(); // no secret set: not checking
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  rec.url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/hook`;
  rec.close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  return rec;
}
