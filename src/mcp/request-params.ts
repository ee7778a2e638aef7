/**
 * Checks a request's params against the MCP schema of its method before the SDK's handlers see
 * it. The SDK parses them itself, but a request that fails that parse comes back as an internal
 * error (-32603) whose message is the schema library's JSON dump; the protocol's answer is
 * InvalidParams (-32602), and a model corrects itself faster from one line naming the parameter.
 */
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** What a failed parse reports about one value (the part of a schema issue this module reads). */
interface ParamsIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
}

interface RequestSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ParamsIssue[] } };
}

/** The schemas of the methods this server answers, by method. */
const REQUEST_SCHEMAS: ReadonlyMap<string, RequestSchema> = new Map<string, RequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
  ['resources/list', ListResourcesRequestSchema],
  ['resources/templates/list', ListResourceTemplatesRequestSchema],
  ['resources/read', ReadResourceRequestSchema],
  ['prompts/list', ListPromptsRequestSchema],
  ['prompts/get', GetPromptRequestSchema],
]);

const EXPECTED_WORDING: Readonly<Record<string, string>> = {
  object: 'an object',
  record: 'an object',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'a list',
};

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** One issue as a short phrase naming the parameter (its path inside params). */
function describeIssue(request: JSONRPCRequest, issue: ParamsIssue): string {
  const name = issue.path.slice(1).map(String).join('.') || 'params';
  if (issue.code !== 'invalid_type') return `${name}: ${issue.message}`;
  const value = valueAt(request, issue.path);
  if (value === undefined) return `${name} is required`;
  return `${name} must be ${EXPECTED_WORDING[issue.expected ?? ''] ?? issue.expected ?? 'something else'}, not ${kindOf(value)}`;
}

/** Why a request's params do not fit its method, one phrase per bad parameter; undefined when they fit or the method is not one this server answers. */
export function paramsProblem(request: JSONRPCRequest): string | undefined {
  const parsed = REQUEST_SCHEMAS.get(request.method)?.safeParse(request);
  if (!parsed || parsed.success) return undefined;
  const phrases = [...new Set(parsed.error.issues.map((issue) => describeIssue(request, issue)))].slice(0, 3);
  return `Invalid params for ${request.method}: ${phrases.join('; ')}.`;
}

/**
 * Makes a connected transport answer requests with malformed params itself, as InvalidParams,
 * so they never reach the SDK's parse. Call it after the server has connected to the transport.
 */
export function refuseMalformedParams(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    const problem = isJSONRPCRequest(message) ? paramsProblem(message) : undefined;
    if (problem === undefined) {
      deliver?.(message, extra);
      return;
    }
    const id = (message as JSONRPCRequest).id;
    transport.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: problem } }).catch((error: unknown) => transport.onerror?.(error instanceof Error ? error : new Error(String(error))));
  };
}
