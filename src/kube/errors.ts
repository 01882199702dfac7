// Classifies API errors: what is transient, what means "absent", what means "re-read".

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
