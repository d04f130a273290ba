// A streaming client for an OpenAI-compatible chat-completions endpoint (Ollama, llama.cpp's
// server, vLLM, OpenAI): POST {model, messages, stream: true, max_tokens}, read the server-sent
// events, yield the answer's text as it comes. An answer counts as whole only when the stream
// says it is done (`data: [DONE]` or a finish_reason); a connection that ends before is a cut
// stream, an error like any other. The endpoint is checked by the SSRF rules (every resolved
// address, at connect time) unless it is on loopback: a model on this machine is the usual
// case and needs no permission; one on the private network needs RHIZOME_ALLOW_PRIVATE_FETCH.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { createParser } from 'eventsource-parser';
import { guardedLookup } from '../../ingest/fetch.js';
import { chatCompletionsUrl } from '../../ingest/llm.js';
import { isPrivateAddress } from '../../ingest/net-guard.js';

export interface LlmEndpoint {
  url: string;
  model: string;
  key?: string;
  allowPrivate: boolean;
  /** The whole answer must arrive within this (ms). */
  timeoutMs: number;
  /** And no pause between two pieces of it may be longer than this (ms). */
  idleMs: number;
}

export type LlmFailure = 'timeout' | 'http_error' | 'network' | 'stream_cut' | 'refused' | 'bad_response';

export class LlmError extends Error {
  constructor(readonly reason: LlmFailure, message: string) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Whether a URL's host is this machine (a name that only resolves here, or a loopback address). */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./.test(host);
  return false;
}

/** The answer's text, piece by piece; throws LlmError on any failure, at any point. */
export async function* streamChat(ep: LlmEndpoint, messages: ChatMessage[], maxTokens: number, signal?: AbortSignal): AsyncGenerator<string> {
  const target = new URL(chatCompletionsUrl(ep.url));
  const loopback = isLoopbackUrl(target.href);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!loopback && isIP(host) && isPrivateAddress(host) && !ep.allowPrivate) throw new LlmError('refused', `refusing to reach the model endpoint at ${host}: a private address (set RHIZOME_ALLOW_PRIVATE_FETCH=1 to allow it)`);
  const body = JSON.stringify({ model: ep.model, messages, stream: true, max_tokens: maxTokens, temperature: 0 });
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': String(Buffer.byteLength(body)) };
  if (ep.key) headers.authorization = `Bearer ${ep.key}`;

  const lib = target.protocol === 'https:' ? https : http;
  const req = lib.request(target, { method: 'POST', headers, ...(loopback ? {} : { lookup: guardedLookup(ep.allowPrivate) }) });
  let failure: LlmError | null = null;
  const fail = (e: LlmError) => {
    failure ??= e;
    req.destroy(e);
  };
  const deadline = setTimeout(() => fail(new LlmError('timeout', `the model did not finish within ${ep.timeoutMs} ms`)), ep.timeoutMs);
  let idle = setTimeout(() => fail(new LlmError('timeout', `the model sent nothing for ${ep.idleMs} ms`)), ep.idleMs);
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => fail(new LlmError('timeout', `the model sent nothing for ${ep.idleMs} ms`)), ep.idleMs);
  };
  const onAbort = () => fail(new LlmError('timeout', 'the answer was no longer wanted'));
  signal?.addEventListener('abort', onAbort);
  try {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
      req.end(body);
    }).catch((e) => {
      throw failure ?? new LlmError((e as { code?: string }).code === 'EPRIVATE' ? 'refused' : 'network', `the model endpoint could not be reached: ${(e as Error).message}`);
    });
    touch();
    if (res.statusCode !== 200) {
      res.resume();
      throw new LlmError('http_error', `the model endpoint answered HTTP ${res.statusCode}`);
    }
    res.setEncoding('utf8');
    const type = String(res.headers['content-type'] ?? '');
    if (type.includes('application/json')) {
      // An endpoint that ignores stream: true answers whole.
      yield contentOf(JSON.parse(await readAll(res, touch)));
      return;
    }
    const pending: string[] = [];
    let done = false;
    const parser = createParser({
      onEvent(ev) {
        if (ev.data.trim() === '[DONE]') {
          done = true;
          return;
        }
        let chunk: { choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }> };
        try {
          chunk = JSON.parse(ev.data);
        } catch {
          throw new LlmError('bad_response', 'the model endpoint sent an event that is not JSON');
        }
        const choice = chunk.choices?.[0];
        if (choice?.delta?.content) pending.push(choice.delta.content);
        if (choice?.finish_reason) done = true;
      },
    });
    try {
      for await (const piece of res) {
        touch();
        parser.feed(piece as string);
        while (pending.length) yield pending.shift()!;
        if (done) break;
      }
    } catch (e) {
      throw failure ?? (e instanceof LlmError ? e : new LlmError('stream_cut', `the model's answer stopped: ${(e as Error).message}`));
    }
    if (failure) throw failure;
    if (!done) throw new LlmError('stream_cut', "the model's answer stopped before it was complete");
  } finally {
    clearTimeout(deadline);
    clearTimeout(idle);
    signal?.removeEventListener('abort', onAbort);
    req.destroy();
  }
}

function contentOf(body: { choices?: Array<{ message?: { content?: string } }> }): string {
  const text = body.choices?.[0]?.message?.content;
  if (typeof text !== 'string') throw new LlmError('bad_response', 'the model endpoint answered without a message');
  return text;
}

async function readAll(res: http.IncomingMessage, touch: () => void): Promise<string> {
  let text = '';
  for await (const p of res) {
    touch();
    text += p as string;
  }
  return text;
}
