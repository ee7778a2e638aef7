/** One problem with one input: a query parameter, a body field or a tool argument. */
export interface FieldError {
  parameter?: string;
  field?: string;
  message: string;
}

/** Problem kinds the service answers with, each one RFC 9457 problem type. */
export const PROBLEM_TYPES = {
  'invalid-parameters': { status: 400, title: 'Invalid parameters' },
  'unauthorized': { status: 401, title: 'Unauthorized' },
  'forbidden': { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'not-acceptable': { status: 406, title: 'Not acceptable' },
  'not-reviewable': { status: 409, title: 'Not in review' },
  'gone': { status: 410, title: 'Gone' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'idempotency-key-reused': { status: 422, title: 'Idempotency key reused' },
  'too-many-requests': { status: 429, title: 'Too many requests' },
  'quota-exceeded': { status: 429, title: 'Daily quota exceeded' },
  'service-unavailable': { status: 503, title: 'Service unavailable' },
  'internal-error': { status: 500, title: 'Internal error' },
} as const;

export type ProblemType = keyof typeof PROBLEM_TYPES;

/** An error that leaves the service as application/problem+json. */
export class ProblemError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly type: ProblemType,
    readonly detail: string,
    /** `extensions` are further members of the problem body (RFC 9457 §3.2). */
    readonly options: { errors?: FieldError[]; headers?: Record<string, string>; cause?: unknown; extensions?: Record<string, unknown> } = {},
  ) {
    super(detail, { cause: options.cause });
    this.name = 'ProblemError';
    this.status = PROBLEM_TYPES[type].status;
    this.title = PROBLEM_TYPES[type].title;
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
  return { status: problem.status, body, headers: problem.options.headers ?? {} };
}
