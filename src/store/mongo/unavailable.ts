import { MongoNetworkError, MongoNotConnectedError, MongoServerSelectionError, MongoTopologyClosedError } from 'mongodb';

/** Whether an error means MongoDB could not be reached (as opposed to a refused or wrong request). */
export function isMongoUnavailable(error: unknown): boolean {
  return error instanceof MongoNetworkError || error instanceof MongoServerSelectionError || error instanceof MongoNotConnectedError || error instanceof MongoTopologyClosedError;
}
