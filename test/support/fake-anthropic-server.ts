// A local fake of the Anthropic Messages API (POST /v1/messages) for tests that use the real SDK.
// Each test supplies a handler that turns the request body into a reply; the server counts and
// records requests so tests can assert batching, caching and what was (not) sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  model: string;
  system?: unknown;
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ name: string; input_schema: unknown }>;
  tool_choice?: { type: string; name?: string };
}

/** What the handler returns: tool input (wrapped in a tool_use reply), a full message body, or raw text. */
export type FakeReply = { toolInput: unknown } | { message: unknown } | { raw: string; status?: number };

export interface FakeAnthropicServer {
  url: string;
  requests: FakeRequest[];
  setHandler(h: (req: FakeRequest) => FakeReply): void;
  close(): Promise<void>;
}

/** The user message text of a request (what the model would read). */
export function userText(req: FakeRequest): string {
  const c = req.messages[0]?.content;
  return typeof c === 'string' ? c : JSON.stringify(c);
}

/** Candidate ids and snippets as sent in the delimited page-data block. */
export function sentCandidates(req: FakeRequest): Array<{ id: string; candidate: string; snippet: string; allowed_networks: string[] }> {
  const text = userText(req);
  const json = text.slice(text.indexOf('<page_data>') + 11, text.lastIndexOf('</page_data>'));
  return (JSON.parse(json) as { candidates: Array<{ id: string; candidate: string; snippet: string; allowed_networks: string[] }> }).candidates;
}

export async function startFakeAnthropicServer(): Promise<FakeAnthropicServer> {
  const requests: FakeRequest[] = [];
  let handler: (req: FakeRequest) => FakeReply = () => ({ toolInput: { candidates: [] } });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not found' } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeRequest;
      requests.push(body);
      const reply = handler(body);
      if ('raw' in reply) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(reply.raw);
        return;
      }
      const message = 'message' in reply ? reply.message : {
        id: `msg_${requests.length}`, type: 'message', role: 'assistant', model: body.model,
        content: [{ type: 'tool_use', id: `toolu_${requests.length}`, name: body.tool_choice?.name ?? 'tool', input: reply.toolInput }],
        stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 10 },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler: (h) => {
      handler = h;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A scripted answer calling tool `name` with `input`, with the usage the API would count. */
export function toolUseReply(name: string, input: unknown, usage = { input_tokens: 10, output_tokens: 10 }): FakeReply {
  return {
    message: {
      id: `msg_${name}`, type: 'message', role: 'assistant', model: 'claude-test',
      content: [{ type: 'tool_use', id: `toolu_${Math.random().toString(36).slice(2, 10)}`, name, input }],
      stop_reason: 'tool_use', stop_sequence: null, usage,
    },
  };
}
