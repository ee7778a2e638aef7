import type { Context, Middleware } from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { ReadContext } from '../domain/specimens.ts';
import { ProblemError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { createMcpServer } from './server.ts';
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

/**
 * POST /mcp: Streamable HTTP, stateless, JSON responses. Every request gets a fresh MCP server
 * and transport, both closed when the response closes. Guards run first: method, Origin,
 * protocol version, size and content type.
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
    const raw = await readRawBody(ctx, MCP_BODY_LIMIT);
    let message: unknown;
    try {
      message = JSON.parse(raw.toString('utf8'));
    } catch {
      jsonRpcError(ctx, 400, -32700, 'Parse error: the body is not JSON.');
      return;
    }
    const invalid = invalidRequestReason(message);
    if (invalid !== undefined) {
      jsonRpcError(ctx, 400, -32600, `Invalid Request: ${invalid}`);
      return;
    }
    const server = createMcpServer(context, options.version, options.guide, { isUnavailable: options.isUnavailable, logger: options.logger });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    ctx.respond = false;
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, message);
  };
}
