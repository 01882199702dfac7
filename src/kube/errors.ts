// Classifies API errors: what is transient, what means "absent", what means
// "re-read", and what the server refuses for good.
import { inspect } from 'node:util';

interface ApiErrorLike {
  code?: number;
  body?: unknown;
  message?: string;
}

/** Longest error text put into a log line, condition or event. */
const MAX_DESCRIPTION = 1000;

export function statusCode(err: unknown): number | undefined {
  const code = (err as ApiErrorLike | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

export const isNotFound = (err: unknown): boolean => statusCode(err) === 404;
/** A conflict (stale resourceVersion) or an AlreadyExists: re-read and retry. */
export const isConflict = (err: unknown): boolean => statusCode(err) === 409;

/**
 * The server refused the request itself (bad request, invalid, too large, or
 * denied by an admission webhook): sending it again changes nothing until the
 * object it was computed from changes.
 */
export function isPermanent(err: unknown): boolean {
  const code = statusCode(err);
  if (code === 400 || code === 413 || code === 422) return true;
  return code === 403 && /admission webhook/i.test(describeError(err));
}

/** Denied by authentication or RBAC (not by an admission webhook): the controller lacks a grant. */
export function isAccessDenied(err: unknown): boolean {
  const code = statusCode(err);
  if (code === 401) return true;
  return code === 403 && !/admission webhook/i.test(describeError(err));
}

/** One line, bounded: API bodies can be multi-line and huge. */
export function oneLine(text: string, max = MAX_DESCRIPTION): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The API server's own message when there is one, else the error's; one bounded line. */
export function describeError(err: unknown): string {
  const body = (err as ApiErrorLike | undefined)?.body;
  if (typeof body === 'string') {
    try {
      const status = JSON.parse(body) as { message?: string };
      if (status.message) return oneLine(status.message);
    } catch {
      if (body) return oneLine(body);
    }
  } else if (body && typeof body === 'object' && 'message' in body) {
    return oneLine(String(body.message));
  }
  return oneLine(err instanceof Error ? err.message : String(err));
}

/** The message of an error and of its causes, outermost first; one bounded line. */
export function describeErrorChain(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current !== undefined && depth < 10; depth++) {
    parts.push(current instanceof Error ? current.message : inspect(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return oneLine(parts.join(': '), 2 * MAX_DESCRIPTION);
}
