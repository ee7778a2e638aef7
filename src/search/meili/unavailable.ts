/**
 * Which failures of a Meilisearch request mean "the search engine cannot answer now" (the
 * archive answers 503 with Retry-After) rather than a defect (500).
 */
import { MeilisearchApiError, MeilisearchRequestError, MeilisearchRequestTimeOutError } from 'meilisearch';

/**
 * Statuses with which Meilisearch or a proxy in front of it says it cannot answer now: a gateway
 * whose upstream is down or slow (502, 504), or Meilisearch's own 503 (a full search queue).
 */
const UNAVAILABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * Something other than Meilisearch answered at its address with a body that is not JSON, such as
 * a proxy's HTML error page. The official client reads every body as JSON and lets the parser's
 * SyntaxError escape, which would otherwise pass for a defect of the archive.
 */
export class MeiliForeignAnswerError extends Error {
  constructor(cause: SyntaxError) {
    super('the Meilisearch address answered with a body that is not JSON (a proxy error page?)', { cause });
    this.name = 'MeiliForeignAnswerError';
  }
}

/** Awaits a request made with the official client, naming a non-JSON answer for what it is. */
export async function fromMeili<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof SyntaxError) throw new MeiliForeignAnswerError(error);
    throw error;
  }
}

/** Whether an error means Meilisearch could not be reached, did not answer in time or said it cannot answer now. */
export function isMeiliUnavailable(error: unknown): boolean {
  if (error instanceof MeilisearchRequestError || error instanceof MeilisearchRequestTimeOutError || error instanceof MeiliForeignAnswerError) return true;
  return error instanceof MeilisearchApiError && UNAVAILABLE_STATUSES.has(error.response.status);
}
