/**
 * The server side of one POST of the Streamable HTTP transport, stateless and in JSON response
 * mode: the messages of one request body go to the MCP server, and the POST is answered with the
 * responses to its requests, one JSON object (or an array of them for a batch of several requests).
 * What the SDK's StreamableHTTPServerTransport does in that mode, without turning the request and
 * its answer into Web Request and Response objects and back (about a tenth of an MCP search's
 * CPU), since this server never opens an event stream, keeps no session and sends nothing to
 * the client but responses.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest, isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * Most messages one POST may carry (the SDK's transport allows any number). JSON-RPC batches left
 * MCP with protocol version 2025-06-18; a client of an earlier version batches a few calls. It was
 * 100 until 2026-11-26: a batch of 100 costly searches held a worker for 32 s.
 */
export const MCP_BATCH_LIMIT = 20;

/** Why the messages of one POST cannot be taken as they are, with the JSON-RPC error code to answer; undefined when they can. */
export function batchProblem(messages: readonly JSONRPCMessage[]): { code: number; message: string } | undefined {
  if (messages.length > MCP_BATCH_LIMIT) return { code: -32600, message: `Invalid Request: a batch may hold at most ${MCP_BATCH_LIMIT} messages.` };
  if (messages.length > 1 && messages.some(isInitializeRequest)) return { code: -32600, message: 'Invalid Request: an initialize request must be sent alone, not in a batch.' };
  return undefined;
}

/**
 * How a POST is answered: the responses to its requests, nothing (202) when it held no request,
 * or not at all when the transport closed first (the client went away).
 */
export type PostAnswer = { kind: 'responses'; body: JSONRPCMessage | JSONRPCMessage[] } | { kind: 'accepted' } | { kind: 'closed' };

/**
 * A transport for one POST: deliver() hands its messages to the connected server and settles when
 * every request among them has its response. Messages the server sends that are not a response
 * to one of them (progress or log notifications) are dropped, as the SDK's transport drops them
 * in JSON response mode. close() stops the requests still running (the client went away).
 */
export class OnePostTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly responses = new Map<RequestId, JSONRPCMessage | undefined>();
  private answer: ((answer: PostAnswer) => void) | undefined;
  private closed = false;
  private answered = false;

  async start(): Promise<void> {}

  /** Delivers the messages of the POST; settles with the answer once all its requests are answered. */
  deliver(messages: readonly JSONRPCMessage[]): Promise<PostAnswer> {
    for (const message of messages) if (isJSONRPCRequest(message)) this.responses.set(message.id, undefined);
    const answered = new Promise<PostAnswer>((resolve) => {
      this.answer = resolve;
    });
    if (this.responses.size === 0) this.settle({ kind: 'accepted' });
    void this.handOver(messages);
    return answered;
  }

  /**
   * Hands the messages to the server one by one, the first at once and each other after a turn of
   * the event loop (setImmediate): a search runs synchronously, so the calls of a batch handed over
   * together ran back to back while the worker's other requests waited (a /healthz 31.8 s behind
   * a batch of 100 costly searches). Stops when the transport closes (the client went away).
   */
  private async handOver(messages: readonly JSONRPCMessage[]): Promise<void> {
    for (const [index, message] of messages.entries()) {
      if (index > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.closed) return;
      this.onmessage?.(message);
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
    const id = message.id;
    if (id === undefined || !this.responses.has(id) || this.responses.get(id) !== undefined) return;
    this.responses.set(id, message);
    const all = [...this.responses.values()];
    if (all.some((response) => response === undefined)) return;
    const body = all as JSONRPCMessage[];
    this.settle({ kind: 'responses', body: body.length === 1 ? (body[0] as JSONRPCMessage) : body });
  }

  /** Stops the requests still running (the server aborts their handlers) and settles the answer as closed. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.settle({ kind: 'closed' });
    this.onclose?.();
  }

  /** Whether the POST's answer is settled: every request answered, none to answer, or closed. */
  get settled(): boolean {
    return this.answered;
  }

  private settle(answer: PostAnswer): void {
    if (this.answered) return;
    this.answered = true;
    this.answer?.(answer);
  }
}
