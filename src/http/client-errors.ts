import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemBody, ProblemError } from '../errors.ts';
import { MAX_HEADER_BYTES } from './server-limits.ts';

/** A socket as Node's HTTP server leaves it: the response it is writing, if any (the check Node's own answer makes). */
type ServerSocket = Duplex & { _httpMessage?: { headersSent?: boolean } | null };

/** The time bounds of the server (serverLimits), in milliseconds. */
export interface RequestTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/** Node's error about a request it could not take: its code, and the bytes it had read. */
type ClientError = Error & { code?: string; rawPacket?: Buffer };

/**
 * What a request Node could not take is told, by the code of Node's error. A head over the bound
 * is the URL's fault (414) when the request line alone takes more than half of it, else the
 * headers' (431).
 */
function problemOf(error: ClientError, timeouts: RequestTimeouts): ProblemError {
  const { code } = error;
  if (code === 'HPE_HEADER_OVERFLOW') {
    const lineEnd = error.rawPacket?.indexOf('\r\n') ?? -1;
    const lineBytes = lineEnd === -1 ? (error.rawPacket?.length ?? 0) : lineEnd;
    if (lineBytes > MAX_HEADER_BYTES / 2) return new ProblemError('uri-too-long', `The URL takes more than ${MAX_HEADER_BYTES / 2048} KB, and the request head more than the ${MAX_HEADER_BYTES / 1024} KB it may take. Search for less (a shorter q, fewer filter values) or, for the whole catalog, read the bulk exports.`);
    return new ProblemError('request-header-too-large', `The request line and headers take more than ${MAX_HEADER_BYTES / 1024} KB. Shorten the headers or the URL; for the whole catalog, read the bulk exports.`);
  }
  if (code === 'HPE_INVALID_METHOD') return new ProblemError('method-not-implemented', 'The request\'s method is not one HTTP defines. Read with GET or HEAD; ingest and review take POST.');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ProblemError('request-timeout', `The request did not arrive in time: its headers must come within ${timeouts.headersTimeoutMs / 1000} s, the whole request within ${timeouts.requestTimeoutMs / 1000} s. Send it again, whole and promptly.`);
  }
  return new ProblemError('malformed-request', 'The request could not be read as HTTP/1.1. A URL holds ASCII alone: percent-encode anything else as its UTF-8 bytes (q=%E9%B9%88%E9%B9%95 for 鹈鹕; encodeURIComponent does it).');
}

/**
 * The server's `clientError` listener: a request Node could not parse or that broke a bound
 * (headers over 16 KB, too slow to arrive) is answered as every other error is, with a
 * problem+json body saying what to change, instead of Node's bare status line; then the connection
 * is closed. Nothing is written on a socket that is gone or already carries a response.
 */
export function answerClientErrors(baseUrl: string, timeouts: RequestTimeouts): (error: ClientError, socket: Duplex) => void {
  return (error, socket) => {
    const { _httpMessage: response } = socket as ServerSocket;
    if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, headers, text } = closingAnswer(problemOf(error, timeouts), baseUrl);
    const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, `Date: ${new Date().toUTCString()}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
    socket.end(`${head.join('\r\n')}\r\n\r\n${text}`);
  };
}

/** A problem answered before the app, as problem+json that is never cached, open to any origin, and closes the connection. */
function closingAnswer(problem: ProblemError, baseUrl: string): { status: number; headers: Record<string, string>; text: string } {
  const { status, body } = problemBody(problem, baseUrl);
  const text = JSON.stringify(body);
  const headers = { 'Content-Type': 'application/problem+json', 'Content-Length': String(Buffer.byteLength(text)), 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*', Connection: 'close' };
  return { status, headers, text };
}

/**
 * The server's `checkExpectation` listener: a request whose Expect field asks for anything but
 * `100-continue` (the one expectation HTTP defines, RFC 9110 §10.1.1) is answered 417 as
 * problem+json, instead of Node's bare status line, and not served.
 */
export function answerUnmetExpectations(baseUrl: string): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const problem = new ProblemError('expectation-failed', `The service meets no expectation but 100-continue; this request's Expect field asks for "${request.headers.expect ?? ''}". Send it without Expect.`);
    const { status, headers, text } = closingAnswer(problem, baseUrl);
    response.writeHead(status, headers);
    response.end(text);
  };
}

/**
 * Node answers `Expect: 100-continue` with 100 Continue as soon as the head arrives, before the app
 * has seen it: a client then sent a body of megabytes to be refused from its headers (a 401 without
 * a token, a 413 by its Content-Length). Such requests are served as any other instead, and the
 * 100 is sent when the app begins to read the body (inviteBody), so a refusal comes before it.
 */
export function continueWhenBodyRead(server: Server): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => server.emit('request', request, response));
}

/** Sends 100 Continue to a client that waits for it before sending its body (see continueWhenBodyRead); called where the body is read, never after the answer began. */
export function inviteBody(request: IncomingMessage, response: ServerResponse): void {
  if (request.headers.expect?.toLowerCase() === '100-continue' && !response.headersSent) response.writeContinue();
}
