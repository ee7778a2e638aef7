import { MeilisearchRequestError, MeilisearchRequestTimeOutError } from 'meilisearch';

/** Whether an error means Meilisearch could not be reached or did not answer in time. */
export function isMeiliUnavailable(error: unknown): boolean {
  return error instanceof MeilisearchRequestError || error instanceof MeilisearchRequestTimeOutError;
}
