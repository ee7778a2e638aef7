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

/** An error's code and message without its stack, for a failure already logged in full. */
export function errorSummary(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
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
