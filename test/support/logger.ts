// A logger that keeps what it is told, for tests that check what is logged and at which level.
import type { Logger, LogMeta } from '../../src/logging.js';

interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  meta?: LogMeta;
}

export type RecordingLogger = Logger & { records: LogRecord[]; readonly errors: LogRecord[] };

export function recordingLogger(): RecordingLogger {
  const records: LogRecord[] = [];
  const at =
    (level: LogRecord['level']) =>
    (message: string, meta?: LogMeta): void =>
      void records.push({ level, message, ...(meta ? { meta } : {}) });
  const logger: RecordingLogger = {
    records,
    get errors() {
      return records.filter((r) => r.level === 'error');
    },
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return logger;
}

/** The last `limit` lines a logger (and its children) was told, kept for a failed test's report. */
export type FlightRecorder = Logger & { lines(): string[] };

export function flightRecorder(limit = 400): FlightRecorder {
  const ring: string[] = [];
  const make = (context: LogMeta): Logger => {
    const at =
      (level: LogRecord['level']) =>
      (message: string, meta?: LogMeta): void => {
        const fields = { ...context, ...meta };
        const time = new Date().toISOString().slice(11, 23);
        ring.push(`${time} ${level} ${message} ${JSON.stringify(fields)}`);
        if (ring.length > limit) ring.shift();
      };
    return {
      debug: at('debug'),
      info: at('info'),
      warn: at('warn'),
      error: at('error'),
      child: (meta) => make({ ...context, ...meta }),
    };
  };
  return Object.assign(make({}), { lines: () => [...ring] });
}
