// Structured logging: JSON in the cluster, readable text on a terminal.
// Modules take the narrow Logger interface, never winston itself.
import winston from 'winston';

export type LogMeta = Record<string, unknown>;

export interface Logger {
  debug(message: string, meta?: LogMeta): void;
  info(message: string, meta?: LogMeta): void;
  warn(message: string, meta?: LogMeta): void;
  error(message: string, meta?: LogMeta): void;
  child(meta: LogMeta): Logger;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'json' | 'text';

export function createLogger(level: LogLevel, format: LogFormat): Logger {
  const formats =
    format === 'json'
      ? winston.format.combine(winston.format.timestamp(), winston.format.json())
      : winston.format.combine(
          winston.format.timestamp({ format: 'HH:mm:ss.SSS' }),
          winston.format.printf(({ timestamp, level: lvl, message, ...meta }) => {
            const rest = Object.keys(meta).length ? ` ${JSON.stringify(meta)}` : '';
            return `${String(timestamp)} ${lvl.toUpperCase().padEnd(5)} ${String(message)}${rest}`;
          }),
        );
  const logger = winston.createLogger({
    level,
    format: formats,
    transports: [
      new winston.transports.Console({ stderrLevels: ['debug', 'info', 'warn', 'error'] }),
    ],
  });
  return gated(logger, LEVELS.indexOf(level));
}

const LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

/**
 * Drops the lines below `threshold` before winston sees them: winston filters by level only after
 * a line has gone through its streams, which costs as much as writing it. Most lines are debug.
 */
function gated(logger: winston.Logger, threshold: number): Logger {
  const at = (level: LogLevel) =>
    LEVELS.indexOf(level) <= threshold
      ? (message: string, meta?: LogMeta) => void logger.log(level, message, meta)
      : () => undefined;
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (meta) => gated(logger.child(meta), threshold),
  };
}

/** A logger that drops everything, for tests. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
