import type { ServerOptions } from 'node:http';
import type { Config } from '../config.ts';

/** Largest request head (request line and headers) accepted; past it Node answers 431. */
export const MAX_HEADER_BYTES = 16 * 1024;
const HEADERS_TIMEOUT_MS = 20_000;

/**
 * Bounds on what one connection may cost: the size of its headers, the time to send them and the
 * time to send the whole request. Past a bound Node answers 408 (time) or 431 (size) and closes
 * the connection, so a slow or oversized client cannot hold a worker. Bodies are bounded per
 * route (see body.ts).
 */
export function serverLimits(config: Pick<Config, 'requestTimeoutMs'>): ServerOptions & { headersTimeout: number; requestTimeout: number } {
  return {
    maxHeaderSize: MAX_HEADER_BYTES,
    // The app answers a request without a Host field itself, as problem+json (requireOneHost).
    requireHostHeader: false,
    requestTimeout: config.requestTimeoutMs,
    headersTimeout: Math.min(config.requestTimeoutMs, HEADERS_TIMEOUT_MS),
    connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs / 2),
  };
}
