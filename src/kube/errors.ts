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

/** The server's Status of a failed request (the body of an API error), when it has one. */
interface Status {
  message?: string;
  details?: { causes?: unknown[] };
}

function statusOf(err: unknown): Status | undefined {
  const body = (err as ApiErrorLike | undefined)?.body;
  if (body && typeof body === 'object') return body;
  if (typeof body !== 'string' || !body) return undefined;
  try {
    const parsed = JSON.parse(body) as unknown;
    return parsed && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Denied at admission: by an admission webhook or a ValidatingAdmissionPolicy. The API server
 * words both answers so ("admission webhook \"…\" denied the request", "ValidatingAdmissionPolicy
 * '…' … denied request"), whatever status code the webhook or the policy's `reason` chose.
 */
export function isAdmissionDenial(err: unknown): boolean {
  return /admission webhook .*denied|ValidatingAdmissionPolicy '[^']*'.* denied request/i.test(
    describeError(err),
  );
}

/**
 * A JSON patch that no longer applies (a failed `test`, a path that is gone): the API server
 * answers 422 with a generic message and no `details.causes`. Every other 422 (field errors,
 * policy and webhook denials) carries causes.
 */
export function isUnappliedJsonPatch(err: unknown): boolean {
  return (
    statusCode(err) === 422 &&
    !isAdmissionDenial(err) &&
    (statusOf(err)?.details?.causes?.length ?? 0) === 0
  );
}

/**
 * Denied because a ValidatingAdmissionPolicy could not be evaluated, not because of the object:
 * its parameter kind is unknown, or not listed yet after the API server started or the policy
 * was created, or its binding cannot be compiled. With failurePolicy Fail the API server denies
 * every request the policy matches (422, "failed to configure policy|binding"), before the
 * policy's matchConditions could exempt a controller. It ends when the policy's configuration
 * (or the API server's cache) does, with no change to the object: retried, like a webhook that
 * cannot be called.
 */
export function isUnevaluatedPolicy(err: unknown): boolean {
  return /ValidatingAdmissionPolicy '[^']*'.* denied request: failed to configure (policy|binding)\b/i.test(
    describeError(err),
  );
}

/**
 * The server refused the request itself (bad request, invalid, too large, or
 * denied at admission): sending it again changes nothing until the
 * object it was computed from changes.
 */
export function isPermanent(err: unknown): boolean {
  if (isUnevaluatedPolicy(err)) return false;
  const code = statusCode(err);
  if (code === 400 || code === 413 || code === 422) return true;
  return (code === 401 || code === 403) && isAdmissionDenial(err);
}

/** Denied by authentication or RBAC (not at admission): the controller lacks a grant. */
export function isAccessDenied(err: unknown): boolean {
  const code = statusCode(err);
  return (code === 401 || code === 403) && !isAdmissionDenial(err);
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
