/** One JSON line per event on standard output. Never given tokens or request bodies. */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function describeError(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack, cause: value.cause === undefined ? undefined : describeError(value.cause) };
  return value;
}

/** An error's code and message: `CODE: message`, or the message alone. */
function codeAndMessage(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message.trim()}` : error.message.trim();
}

/**
 * The innermost error of a chain of causes (a client's `Request to …/settings has failed` wraps
 * undici's `fetch failed`, which wraps the socket's ECONNREFUSED), as its code and message; the
 * error's own when it has no cause.
 */
export function rootCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let innermost = error;
  for (let cause: unknown = error.cause, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth += 1) innermost = cause;
  return codeAndMessage(innermost);
}

/**
 * An error's code and message without its stack, for a failure already logged in full, with the
 * innermost cause after it when there is one (`Request to …/settings has failed (cause:
 * ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:7700)`): the client's own message names no cause.
 */
export function errorSummary(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const own = codeAndMessage(error);
  const cause = rootCause(error);
  return cause === own ? own : `${own} (cause: ${cause})`;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const threshold = ORDER[level];
  const emit = (entryLevel: Exclude<LogLevel, 'silent'>, message: string, fields: Record<string, unknown> = {}): void => {
    if (ORDER[entryLevel] < threshold) return;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level: entryLevel, msg: message, pid: process.pid };
    for (const [key, value] of Object.entries(fields)) entry[key] = key === 'error' ? describeError(value) : value;
    write(`${JSON.stringify(entry)}\n`);
  };
  return {
    debug: (message, fields) => emit('debug', message, fields),
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
  };
}
