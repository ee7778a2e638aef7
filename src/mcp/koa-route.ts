import type { Context, Middleware } from 'koa';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ReadContext } from '../domain/specimens.ts';
import { ProblemError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { createMcpServer } from './server.ts';
import type { ToolResults } from './server.ts';
import { batchProblem, OnePostTransport } from './one-post-transport.ts';
import type { GuideSettings } from '../guides/llms-text.ts';
import { readRawBody, refuseContentCoding } from '../http/body.ts';
import { allowOnly } from '../http/read-route.ts';

/** Largest JSON-RPC request body accepted at /mcp. */
export const MCP_BODY_LIMIT = 64 * 1024;

export interface McpRouteOptions {
  /** Origins (scheme://host[:port]) allowed besides the service's own. */
  allowedOrigins: readonly string[];
  version: string;
  logger: Logger;
  /** What the guide resources state about this deployment (the same text as /llms.txt). */
  guide: GuideSettings;
  /** Whether an error means a backing service cannot answer now (the tools then say so). */
  isUnavailable(error: unknown): boolean;
  /** Where list tool results are kept between requests (none: every call is answered afresh). */
  results?: ToolResults;
  /**
   * Counts the calls of a POST against the client's rate limit, the POST itself counted once
   * already (chargeCalls); throws the 429. Unset: calls are not counted apart.
   */
  chargeCalls?(ctx: Context, calls: number): Promise<void>;
}

/** The requests among a POST's messages (those with a method and an id): each one call, which a batch of up to MCP_BATCH_LIMIT makes at once. */
function callsIn(messages: readonly JSONRPCMessage[]): number {
  return messages.filter((message) => 'method' in message && 'id' in message).length;
}

function jsonRpcError(ctx: Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { jsonrpc: '2.0', id: null, error: { code, message } };
}

/**
 * Why a parsed body is not a JSON-RPC request, notification or response, or a batch of them
 * (JSON-RPC 2.0 calls this an Invalid Request, -32600; the SDK's transport would answer an empty
 * batch with nothing and any other shape as a parse error); undefined when it is one.
 */
export function invalidRequestReason(body: unknown): string | undefined {
  const shape = 'a JSON-RPC 2.0 message is an object with "jsonrpc": "2.0" and a "method", or a response';
  if (!Array.isArray(body)) return JSONRPCMessageSchema.safeParse(body).success ? undefined : `the body is not a JSON-RPC message (${shape}).`;
  if (body.length === 0) return 'the batch is empty.';
  const bad = body.findIndex((element) => !JSONRPCMessageSchema.safeParse(element).success);
  return bad === -1 ? undefined : `element ${bad} of the batch is not a JSON-RPC message (${shape}).`;
}

/** Whether an Accept header takes both answers Streamable HTTP may give: JSON and an event stream (a list, so a substring test, as the SDK's transport makes it). */
function acceptsBoth(accept: string): boolean {
  return accept.includes('application/json') && accept.includes('text/event-stream');
}

/**
 * POST /mcp: Streamable HTTP, stateless, JSON responses. Every request gets a fresh MCP server
 * and a transport for that POST alone (OnePostTransport); the server's requests still running
 * when the client goes away are stopped. Guards run first: method, Origin, protocol version,
 * content type, Accept and size.
 */
export function mcpRoute(context: ReadContext, options: McpRouteOptions): Middleware {
  const ownOrigin = new URL(context.baseUrl).origin;
  const allowed = new Set([ownOrigin, ...options.allowedOrigins]);
  return async function mcpHandler(ctx: Context): Promise<void> {
    const origin = ctx.get('Origin');
    if (origin && !allowed.has(origin)) throw new ProblemError('forbidden', `Origin ${origin} may not use this MCP server. Allowed: ${[...allowed].join(', ')}.`);
    if (allowOnly(ctx, ['POST'], 'this MCP server is stateless: send JSON-RPC requests with POST; it offers no event stream (GET) and no sessions to delete (DELETE).') === 'handled') {
      ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', 'Accept, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, User-Agent');
      return;
    }
    const protocolVersion = ctx.get('MCP-Protocol-Version');
    if (protocolVersion && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
      throw new ProblemError('invalid-parameters', `MCP protocol version ${protocolVersion} is not supported. Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`, {
        errors: [{ parameter: 'MCP-Protocol-Version', message: `must be one of: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}` }],
      });
    }
    if (!ctx.is('application/json')) throw new ProblemError('unsupported-media-type', 'Send JSON-RPC messages as application/json.');
    refuseContentCoding(ctx);
    if (!acceptsBoth(ctx.get('Accept'))) {
      jsonRpcError(ctx, 406, -32000, 'Not Acceptable: the Accept header must list both application/json and text/event-stream (MCP Streamable HTTP).');
      return;
    }
    const raw = await readRawBody(ctx, MCP_BODY_LIMIT);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      jsonRpcError(ctx, 400, -32700, 'Parse error: the body is not JSON.');
      return;
    }
    const invalid = invalidRequestReason(body);
    if (invalid !== undefined) {
      jsonRpcError(ctx, 400, -32600, `Invalid Request: ${invalid}`);
      return;
    }
    const messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
    const problem = batchProblem(messages);
    if (problem) {
      jsonRpcError(ctx, 400, problem.code, problem.message);
      return;
    }
    // Each call of a batch is a request to the rate limit: a batch of 100 searches was counted once.
    await options.chargeCalls?.(ctx, callsIn(messages));
    const server = createMcpServer(context, options.version, options.guide, { isUnavailable: options.isUnavailable, logger: options.logger }, options.results);
    const transport = new OnePostTransport();
    await server.connect(transport);
    // Closed only when the client goes away first: once answered nothing is pending, and closing
    // would only build the SDK's "Connection closed" error (with its stack) for no one.
    const stopWhenGone = (): void => {
      if (!transport.settled) void server.close();
    };
    ctx.res.once('close', stopWhenGone);
    const answer = await transport.deliver(messages);
    ctx.res.off('close', stopWhenGone);
    if (answer.kind === 'closed') return;
    if (answer.kind === 'accepted') {
      // In this order: Koa makes a status with a null body 204.
      ctx.body = null;
      ctx.status = 202;
      return;
    }
    ctx.status = 200;
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(answer.body);
  };
}
