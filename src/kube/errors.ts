// Classifies API errors: what is transient, what means "absent", what means "re-read".
import { inspect } from 'node:util';

interface ApiErrorLike {
  code?: number;
  body?: unknown;
  message?: string;
}

export function statusCode(err: unknown): number | undefined {
  const code = (err as ApiErrorLike | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

export const isNotFound = (err: unknown): boolean => statusCode(err) === 404;
/** A conflict (stale resourceVersion) or an AlreadyExists: re-read and retry. */
export const isConflict = (err: unknown): boolean => statusCode(err) === 409;

/** The API server's own message when there is one, else the error's. */
export function describeError(err: unknown): string {
  const body = (err as ApiErrorLike | undefined)?.body;
  if (typeof body === 'string') {
    try {
      const status = JSON.parse(body) as { message?: string };
      if (status.message) return status.message;
    } catch {
      if (body) return body;
    }
  } else if (body && typeof body === 'object' && 'message' in body) {
    return String(body.message);
  }
  return err instanceof Error ? err.message : String(err);
}

/** The message of an error and of its causes, outermost first. */
export function describeErrorChain(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current !== undefined && depth < 10; depth++) {
    parts.push(current instanceof Error ? current.message : inspect(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ');
}
