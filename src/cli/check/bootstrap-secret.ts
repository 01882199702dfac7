// The Secret a MachineSet's machines boot from, as Cluster API would read it: the mirror names it
// (`spec.template.spec.bootstrap.dataSecretName`), and Cluster API reads it in its own namespace,
// where Machine API's copy does not count. A MachineSet migrated to Cluster API without it would
// create machines that never boot. Pure.
import type { CapiMachineSet, KubeObject } from '../../api/types.js';
import type { MachineSetReport, Problem } from './report.js';

/** What was found of the named Secrets in the Cluster API namespace. */
export type BootstrapSecrets =
  { namespace: string; missing: ReadonlySet<string> } | { namespace: string; notRead: string };

const PATH = 'spec.template.spec.providerSpec.value.userDataSecret.name';

/** The Secret the mirror of a MachineSet boots its machines from, if it could be mirrored. */
function bootstrapSecretOf(report: MachineSetReport): string | undefined {
  const machineSet = report.capiObjects.find(isCapiMachineSet);
  return machineSet?.spec.template.spec.bootstrap?.dataSecretName;
}

/** The Secrets to look for: those of the MachineSets that Machine API still runs. */
export function bootstrapSecretsToRead(reports: readonly MachineSetReport[]): string[] {
  const names = reports
    .filter((report) => (report.authoritativeAPI ?? 'MachineAPI') === 'MachineAPI')
    .flatMap((report) => bootstrapSecretOf(report) ?? []);
  return [...new Set(names)].sort();
}

/** The report, holding the migration while its mirror's bootstrap Secret is missing. */
export function withBootstrapSecret(
  report: MachineSetReport,
  secrets: BootstrapSecrets,
): MachineSetReport {
  const name = bootstrapSecretOf(report);
  if (name === undefined || !('missing' in secrets) || !secrets.missing.has(name)) return report;
  if ((report.authoritativeAPI ?? 'MachineAPI') !== 'MachineAPI') return report;
  const problem: Problem = {
    stage: 'migration',
    path: PATH,
    message:
      `names the Secret ${name}, which does not exist in ${secrets.namespace}, where Cluster ` +
      `API reads it: machines it creates for this MachineSet would never boot. Copy the Secret ` +
      `there (oc get secret ${name} -n ${report.namespace ?? 'openshift-machine-api'} -o json | jq '.metadata |= ` +
      `{name, namespace: "${secrets.namespace}"}' | oc apply -f -), then check again.`,
  };
  return { ...report, canMigrate: false, blocking: [...report.blocking, problem] };
}

/** One note when the Secrets could not be read; none otherwise. */
export function bootstrapSecretNotes(secrets: BootstrapSecrets | undefined): string[] {
  if (secrets === undefined || !('notRead' in secrets)) return [];
  return [`bootstrap Secrets in ${secrets.namespace} not checked: ${secrets.notRead}.`];
}

function isCapiMachineSet(object: KubeObject): object is CapiMachineSet {
  return object.kind === 'MachineSet' && object.apiVersion.startsWith('cluster.x-k8s.io/');
}
