// Reads the control plane's audit log for what the API server refused the controller: a denial by
// a guard rail (ours or OpenShift's, which both exempt it) or a 403 (RBAC, or an admission plugin
// such as OwnerReferencesPermissionEnforcement) must never happen.
import { open, stat } from 'node:fs/promises';
import { controlPlane } from './cluster.js';

export interface AuditEvent {
  verb: string;
  requestURI: string;
  user: { username: string };
  responseStatus?: { code?: number; message?: string };
}

/** The controller's user, whatever namespace a test gives its ServiceAccount. */
const CONTROLLER_USER = /^system:serviceaccount:[^:]+:mapi-capi-sync$/;
const POLICY_DENIAL = "ValidatingAdmissionPolicy '";
/** Ours (manifests/) and OpenShift's (test/support/openshift-policies.ts), by name. */
const GUARD_RAIL =
  /ValidatingAdmissionPolicy '(mapi-capi-sync-|openshift-|machine-api-machine|cluster-api-machine)/;

/** Denials up to here were provoked on purpose by the test that read them. */
let acknowledged = 0;

/** A test that made our policies deny the controller on purpose says so once it has checked. */
export async function acknowledgeControllerDenials(): Promise<void> {
  acknowledged = await auditLogEnd();
}

/** Where the audit log ends now (a later read starts there). */
export async function auditLogEnd(): Promise<number> {
  return (await stat(controlPlane().auditLogPath).catch(() => ({ size: 0 }))).size;
}

/** The audit log's lines from `from` (a byte offset) to its end. */
async function auditLinesSince(from: number): Promise<string[]> {
  const path = controlPlane().auditLogPath;
  const end = await auditLogEnd();
  // a rotated log starts again from the beginning
  const start = end < from ? 0 : from;
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(end - start), 0, end - start, start);
    return buffer.subarray(0, bytesRead).toString('utf8').split('\n');
  } finally {
    await file.close();
  }
}

/**
 * Requests of the controller since `from` (a byte offset) that a guard rail denied or that were
 * forbidden.
 */
export async function controllerDenialsSince(from: number): Promise<string[]> {
  return (await auditLinesSince(Math.max(from, acknowledged)))
    .filter((line) => line.includes('mapi-capi-sync"'))
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((e) => CONTROLLER_USER.test(e.user.username))
    .filter((e) => {
      const message = e.responseStatus?.message ?? '';
      // someone else's policy is a test's own business; RBAC and admission plugins are not
      if (message.includes(POLICY_DENIAL)) return GUARD_RAIL.test(message);
      return e.responseStatus?.code === 403;
    })
    .map((e) => `${e.verb} ${e.requestURI}: ${e.responseStatus?.message ?? ''}`);
}

/** The requests since `from` (a byte offset) whose URI contains `uriPart`. */
export async function auditEventsSince(from: number, uriPart: string): Promise<AuditEvent[]> {
  return (await auditLinesSince(from))
    .filter((line) => line.includes(uriPart))
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((e) => e.requestURI.includes(uriPart));
}
