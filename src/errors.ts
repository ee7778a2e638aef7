/** One problem with one input: a query parameter, a body field or a tool argument. */
export interface FieldError {
  parameter?: string;
  field?: string;
  message: string;
}

/** The field name of a problem with a whole request body (not JSON, or not the object asked for), where no field can be named. */
export const BODY_FIELD = 'body';

/** Seconds a client is asked to wait (Retry-After) when a backing service cannot answer. */
export const UNAVAILABLE_RETRY_SECONDS = 5;

/**
 * Problem kinds the service answers with, each one RFC 9457 problem type; `help` is the text of
 * the type's documentation at {base}/problems/{name}, where every problem body's `type` points.
 */
export const PROBLEM_TYPES = {
  'invalid-parameters': {
    status: 400,
    title: 'Invalid parameters',
    help: 'A query parameter, a request header (`Idempotency-Key`), a body field or a tool argument is not what the endpoint takes; unknown and repeated parameters count too. `errors` lists each one (`parameter` for a query parameter, header or tool argument, `field` for a body field) with what it must be: correct those and send the request again.',
  },
  'unauthorized': {
    status: 401,
    title: 'Unauthorized',
    help: 'The endpoint needs an access token and none was sent, or the token is unknown or revoked. Send `Authorization: Bearer <token>`; a maintainer creates tokens with `npm run tokens -- create`.',
  },
  'forbidden': {
    status: 403,
    title: 'Forbidden',
    help: 'The request is understood but not allowed: the token lacks the scope the endpoint needs (`ingest`, `review` or `export`), a browser Origin may not use /mcp, or the service refuses generic library User-Agents. `detail` names what is missing.',
  },
  'malformed-request': {
    status: 400,
    title: 'Malformed request',
    help: 'The request could not be read as HTTP/1.1: its request line or a header breaks the syntax. Most often the URL holds characters that must be percent-encoded: a URL is ASCII, so Chinese text goes as its UTF-8 bytes, `q=%E9%B9%88%E9%B9%95` for 鹈鹕 (encodeURIComponent does it). The connection is closed.',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    help: 'Nothing is at this address: an unknown path, a record id that was never published, a submission or batch this token cannot see, or a missing media file. Find records with GET /api/v1/specimens.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    help: 'The address does not take this method; `Allow` lists those it takes (read endpoints: GET, HEAD and OPTIONS).',
  },
  'expectation-failed': {
    status: 417,
    title: 'Expectation failed',
    help: 'The request\'s `Expect` field asked for something other than `100-continue`, the one expectation HTTP defines. Send the request without it (or with `Expect: 100-continue`).',
  },
  'method-not-implemented': {
    status: 501,
    title: 'Not implemented',
    help: 'The request named a method HTTP does not define (RFC 9110 §9.1), so no address of the service takes it. Read with GET or HEAD (OPTIONS for a preflight); ingest and review take POST. The connection is closed.',
  },
  'not-acceptable': { status: 406, title: 'Not acceptable', help: 'The `Accept` header excludes every media type this address answers with.' },
  'not-reviewable': {
    status: 409,
    title: 'Not in review',
    help: 'A maintainer approves or rejects only a submission in `needs_review`; `submissionStatus` says where this one stands.',
  },
  'gone': {
    status: 410,
    title: 'Gone',
    help: 'The record id was published and has been withdrawn from the archive: `reason` says why, `withdrawnAt` when, `sourceUrl` where the work was published and `workTitle` what it was called.',
  },
  'request-timeout': {
    status: 408,
    title: 'Request timeout',
    help: 'The request took longer to arrive than the service waits: 20 s for its headers (or `ARCHIVE_REQUEST_TIMEOUT_MS` when that is less), `ARCHIVE_REQUEST_TIMEOUT_MS` (30 s by default) for the whole request. Send it again, whole and promptly. The connection is closed.',
  },
  'payload-too-large': {
    status: 413,
    title: 'Payload too large',
    help: 'The request body is larger than the endpoint takes (ingest 256 KB, a batch 2 MB, MCP 64 KB). Send less, for example a batch in several parts.',
  },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type', help: 'The body is not of the type the endpoint takes: send JSON with `Content-Type: application/json`, uncompressed (a body sent with `Content-Encoding: gzip` or another coding is not read; `Accept-Encoding: identity` in the answer says so).' },
  'idempotency-key-reused': {
    status: 422,
    title: 'Idempotency key reused',
    help: 'The `Idempotency-Key` was used in the last 24 hours with a different request. A retry must send the same body; a new request needs a new key.',
  },
  'precondition-failed': {
    status: 412,
    title: 'Precondition failed',
    help: 'The request\'s `If-Match` names no version the answer has. If-Match compares entity tags strongly (RFC 9110 §13.1.1): a media file\'s strong tag can match, the weak tags (`W/"…"`) of every other answer never do. Send `If-Match: *`, or leave it out and compare the `ETag` yourself (or use `If-None-Match`, which compares weakly).',
  },
  'range-not-satisfiable': {
    status: 416,
    title: 'Range not satisfiable',
    help: 'A media file was asked for with a `Range` that starts past its end. `Content-Range: bytes */SIZE` gives its size; ask for a range within it, or for the whole file without `Range`.',
  },
  'uri-too-long': {
    status: 414,
    title: 'URI too long',
    help: 'The request head (request line and headers) takes more than 16 KB, most of it the URL. Search for less (a shorter `q`, fewer filter values), or read the whole catalog from the bulk exports. The connection is closed.',
  },
  'request-header-too-large': {
    status: 431,
    title: 'Request header fields too large',
    help: 'The request line and headers together take more than 16 KB. Shorten the URL (a very long `q` or many filter values: search for less, or read the bulk exports) or the headers. The connection is closed.',
  },
  'too-many-requests': {
    status: 429,
    title: 'Too many requests',
    help: 'The client address (or, for ingest, the token) went over its requests per minute. Wait the seconds `Retry-After` gives; the `RateLimit` field says how many requests are left in the window.',
  },
  'quota-exceeded': {
    status: 429,
    title: 'Daily quota exceeded',
    help: 'The token has used its submissions for this UTC day, and a batch that would pass the quota is refused whole. `Retry-After` gives the seconds until the day ends.',
  },
  'service-unavailable': { status: 503, title: 'Service unavailable', help: 'The store or the search engine cannot be reached for the moment, or the store cannot take writes (its disk is full or its files cannot be written), or (at /readyz) this process is shutting down. Retry after the seconds `Retry-After` gives.' },
  'internal-error': { status: 500, title: 'Internal error', help: 'The service failed to answer and logged the error. Retry later; if it persists, report it with the time and the address asked.' },
} as const;

export type ProblemType = keyof typeof PROBLEM_TYPES;

/**
 * The most field errors a problem lists. A request of a few kilobytes can name thousands of
 * unknown parameters; listing each (with the known ones) made an answer of hundreds. The rest are
 * counted (`errorsOmitted`).
 */
export const MAX_LISTED_ERRORS = 50;

/** Names as a problem's detail lists them: up to MAX_LISTED_ERRORS, then how many more. */
export function listedNames(names: readonly string[]): string {
  const listed = names.slice(0, MAX_LISTED_ERRORS).join(', ');
  return names.length > MAX_LISTED_ERRORS ? `${listed} and ${names.length - MAX_LISTED_ERRORS} more` : listed;
}

/** How the messages of one input are joined in its one entry: `must be at most 200 characters …; also holds more than 64 words …`. */
export const MESSAGE_JOINER = '; also ';

/**
 * One entry per input (a parameter, or a body field), in the order of each one's first problem:
 * the messages of an input that breaks several rules are joined, in order (MESSAGE_JOINER), a
 * message said twice once. A client mends every problem of the input at once, and reads one entry
 * per input, as docs/api.md says.
 */
export function onePerInput(errors: readonly FieldError[]): FieldError[] {
  const entries = new Map<string, { error: FieldError; messages: string[] }>();
  for (const error of errors) {
    const key = error.parameter !== undefined ? `parameter ${error.parameter}` : `field ${error.field ?? ''}`;
    const entry = entries.get(key);
    if (!entry) entries.set(key, { error, messages: [error.message] });
    else if (!entry.messages.includes(error.message)) entry.messages.push(error.message);
  }
  return [...entries.values()].map(({ error, messages }) => (messages.length === 1 ? error : { ...error, message: messages.join(MESSAGE_JOINER) }));
}

/**
 * The 400 for bad parameters, the same wherever they are read: "Invalid parameter: x." for one
 * parameter (with one error or several), "Invalid parameters: x, y." for more; `more` follows as
 * further sentences.
 */
export function invalidParametersProblem(errors: FieldError[], more = ''): ProblemError {
  const names = [...new Set(errors.map((error) => error.parameter ?? error.field ?? ''))];
  return new ProblemError('invalid-parameters', `Invalid ${names.length === 1 ? 'parameter' : 'parameters'}: ${listedNames(names)}.${more}`, { errors });
}

type ProblemOptions = { errors?: FieldError[]; headers?: Record<string, string>; cause?: unknown; extensions?: Record<string, unknown> };

/** An error that leaves the service as application/problem+json. */
export class ProblemError extends Error {
  readonly status: number;
  readonly title: string;
  /**
   * `extensions` are further members of the problem body (RFC 9457 §3.2); `errors` holds one entry
   * per input (onePerInput), at most MAX_LISTED_ERRORS.
   */
  readonly options: ProblemOptions;
  /** Inputs named beyond MAX_LISTED_ERRORS, left out of `errors`. */
  readonly errorsOmitted: number;

  constructor(
    readonly type: ProblemType,
    readonly detail: string,
    options: ProblemOptions = {},
  ) {
    super(detail, { cause: options.cause });
    this.name = 'ProblemError';
    this.status = PROBLEM_TYPES[type].status;
    this.title = PROBLEM_TYPES[type].title;
    const errors = onePerInput(options.errors ?? []);
    this.errorsOmitted = Math.max(0, errors.length - MAX_LISTED_ERRORS);
    this.options = options.errors ? { ...options, errors: errors.slice(0, MAX_LISTED_ERRORS) } : options;
  }
}

/** The problem+json body of an error; anything that is not a ProblemError becomes a bare 500. */
export function problemBody(error: unknown, baseUrl: string, instance?: string): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  const problem = error instanceof ProblemError ? error : new ProblemError('internal-error', 'The service failed to answer this request. It has been logged.');
  const body: Record<string, unknown> = {
    type: `${baseUrl}/problems/${problem.type}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
  };
  if (instance) body.instance = instance;
  for (const [name, value] of Object.entries(problem.options.extensions ?? {})) if (!(name in body)) body[name] = value;
  if (problem.options.errors?.length) body.errors = problem.options.errors;
  if (problem.errorsOmitted > 0) body.errorsOmitted = problem.errorsOmitted;
  return { status: problem.status, body, headers: problem.options.headers ?? {} };
}

/** The documentation of a problem type as Markdown: what `{base}/problems/{name}` answers. */
export function problemTypeText(type: ProblemType, baseUrl: string): string {
  const { status, title, help } = PROBLEM_TYPES[type];
  return [
    `# ${title}`,
    '',
    `HTTP status ${status}. Problem type \`${baseUrl}/problems/${type}\`.`,
    '',
    help,
    '',
    'Answers of this type are RFC 9457 `application/problem+json`: `type` (this address), `title`, `status`, `detail` (what went wrong with this request) and `instance` (the path asked).',
    '',
  ].join('\n');
}
