// A real HTTP server on loopback that speaks the OpenAI chat-completions protocol (streamed
// as server-sent events, or whole), the way Ollama, llama.cpp's server and vLLM do, with the
// misbehaviours a generative answer must survive: an error status, a stall, a stream cut in
// the middle. Each test says how the next answer goes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour =
  | { kind: 'answer'; text: string; pieces?: number }
  | { kind: 'whole'; text: string }
  | { kind: 'status'; status: number }
  | { kind: 'stall'; afterText?: string }
  | { kind: 'cut'; text: string };

export interface ChatServer {
  url: string;
  requests: Array<{ headers: http.IncomingHttpHeaders; body: { model: string; stream: boolean; max_tokens: number; messages: Array<{ role: string; content: string }> } }>;
  next: Behaviour;
  close(): Promise<void>;
}

const chunk = (content: string | null, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;

function split(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export async function startChatServer(): Promise<ChatServer> {
  const sockets = new Set<import('node:net').Socket>();
  const s: ChatServer = { url: '', requests: [], next: { kind: 'answer', text: 'ok [1]' }, close: async () => {} };
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const p of req) raw += p;
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    s.requests.push({ headers: req.headers, body: JSON.parse(raw) });
    const b = s.next;
    const sse = () => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    switch (b.kind) {
      case 'status':
        res.writeHead(b.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model crashed' } }));
        return;
      case 'whole':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: b.text }, finish_reason: 'stop' }] }));
        return;
      case 'stall':
        sse();
        if (b.afterText) res.write(chunk(b.afterText));
        return; // never finishes
      case 'cut': {
        sse();
        for (const p of split(b.text, 3)) res.write(chunk(p));
        await new Promise((r) => setTimeout(r, 20));
        res.socket?.destroy(); // mid-answer, no [DONE]
        return;
      }
      case 'answer': {
        sse();
        res.write(chunk('')); // a role-only first chunk, as OpenAI sends
        for (const p of split(b.text, b.pieces ?? 4)) {
          res.write(chunk(p));
          await new Promise((r) => setTimeout(r, 5));
        }
        res.write(chunk(null, 'stop'));
        res.end('data: [DONE]\n\n');
      }
    }
  });
  server.on('connection', (c) => {
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  s.close = async () => {
    for (const c of sockets) c.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return s;
}
