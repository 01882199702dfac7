// The write floor: a minimal writer that makes only the writes a MachineSet strictly needs to be
// mirrored, and nothing else (no first-visit condition, no events, no guards beyond what the API
// server checks). A new MachineSet: the MAPI finalizer, the template, the mirror, the mirror's
// status, the MAPI status = 5 writes. A changed one: the new template, the mirror repointed, the
// mirror's status, the old template deleted, the MAPI status = 5 writes. One pass over everything
// that is not Synchronized at its generation, `concurrency` at a time; then it returns.
import type { KubeConfig } from '@kubernetes/client-node';
import type { CapiMachineSet, Infrastructure, MapiMachineSet } from '../../src/api/types.js';
import { awsConverter } from '../../src/conversion/aws/index.js';
import { machineSetToCapi } from '../../src/conversion/machine-set/to-capi.js';
import { Reason, synchronizedCondition, withCondition } from '../../src/sync/conditions.js';
import { FINALIZER, SYNCHRONIZED } from '../../src/model/markers.js';
import { selectorString } from '../../src/sync/machine-set/mirror-status.js';
import { synchronizedAtGeneration } from '../../src/sync/report.js';
import type { ObjectClient } from '../../src/kube/objects.js';
import { INFRASTRUCTURE, INFRASTRUCTURE_NAME } from '../../src/kube/resources.js';
import { objectsFor } from '../../test/support/kube-client.js';

const MAPI = { group: 'machine.openshift.io', version: 'v1beta1', plural: 'machinesets' };
const CAPI = { group: 'cluster.x-k8s.io', version: 'v1beta2', plural: 'machinesets' };
const TEMPLATES = {
  group: 'infrastructure.cluster.x-k8s.io',
  version: 'v1beta2',
  plural: 'awsmachinetemplates',
};

export interface FloorOptions {
  kubeConfig: KubeConfig;
  mapiNamespace: string;
  capiNamespace: string;
  concurrency: number;
}

async function listAll<T>(api: ObjectClient, where: typeof MAPI, namespace: string): Promise<T[]> {
  return (await api.list<T>({ ...where, namespace })).items;
}

/** One pass; resolves with the number of MachineSets it wrote for. */
export async function runFloorPass(options: FloorOptions): Promise<number> {
  const { kubeConfig, mapiNamespace, capiNamespace } = options;
  // Its own field manager: its writes never look like the controller's.
  const api = objectsFor(kubeConfig, { userAgent: 'write-floor' });
  // listed, not read by name: it runs as the controller's identity, whose ClusterRole grants that
  const [infrastructure] = (
    await api.list<Infrastructure>(INFRASTRUCTURE, {
      fieldSelector: `metadata.name=${INFRASTRUCTURE_NAME}`,
    })
  ).items;
  if (!infrastructure) throw new Error(`no Infrastructure ${INFRASTRUCTURE_NAME}`);
  const mirrors = new Map(
    (await listAll<CapiMachineSet>(api, CAPI, capiNamespace)).map((m) => [m.metadata.name, m]),
  );
  const pending = (await listAll<MapiMachineSet>(api, MAPI, mapiNamespace)).filter(
    (m) => !synchronizedAtGeneration(m),
  );

  const syncOne = async (mapi: MapiMachineSet): Promise<void> => {
    const name = mapi.metadata.name;
    const converted = machineSetToCapi({
      mapi,
      infrastructure,
      converter: awsConverter,
      capiNamespace,
      paused: true,
    });
    if (!converted.ok) throw new Error(`${name}: ${JSON.stringify(converted.errors)}`);
    const { machineSet, template } = converted.value;
    const finalizers = mapi.metadata.finalizers ?? [];
    if (!finalizers.includes(FINALIZER)) {
      await api.patch(
        { ...MAPI, namespace: mapiNamespace, name },
        {
          type: 'json',
          operations: [
            finalizers.length === 0
              ? { op: 'add', path: '/metadata/finalizers', value: [FINALIZER] }
              : { op: 'add', path: '/metadata/finalizers/-', value: FINALIZER },
          ],
        },
      );
    }
    await api.create({ ...TEMPLATES, namespace: capiNamespace }, template);

    const existing = mirrors.get(name);
    const oldTemplate = existing?.spec.template.spec.infrastructureRef.name;
    const mirror = existing
      ? await api.patch<CapiMachineSet>(
          { ...CAPI, namespace: capiNamespace, name },
          {
            type: 'json',
            operations: [
              {
                op: 'replace',
                path: '/spec/template/spec/infrastructureRef',
                value: machineSet.spec.template.spec.infrastructureRef,
              },
            ],
          },
        )
      : await api.create<CapiMachineSet>({ ...CAPI, namespace: capiNamespace }, machineSet);
    await api.patch(
      { ...CAPI, namespace: capiNamespace, name },
      {
        type: 'json',
        operations: [
          {
            op: 'add',
            path: '/status',
            value: {
              replicas: mapi.status?.replicas ?? 0,
              readyReplicas: mapi.status?.readyReplicas ?? 0,
              availableReplicas: mapi.status?.availableReplicas ?? 0,
              selector: selectorString(mirror.spec.selector),
              observedGeneration: mirror.metadata.generation,
            },
          },
        ],
      },
      { subresource: 'status' },
    );
    if (oldTemplate && oldTemplate !== template.metadata.name) {
      await api.delete({ ...TEMPLATES, namespace: capiNamespace, name: oldTemplate });
    }
    const previous = mapi.status?.conditions?.find((c) => c.type === SYNCHRONIZED);
    const condition = synchronizedCondition(
      { status: 'True', reason: Reason.Synchronized, message: '' },
      previous,
      new Date().toISOString(),
    );
    await api.patch(
      { ...MAPI, namespace: mapiNamespace, name },
      {
        type: 'json',
        operations: [
          {
            op: 'add',
            path: '/status/conditions',
            value: withCondition(mapi.status?.conditions, condition),
          },
          { op: 'add', path: '/status/synchronizedGeneration', value: mapi.metadata.generation },
        ],
      },
      { subresource: 'status' },
    );
  };

  // `concurrency` lanes, each taking the next MachineSet until none is left.
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < pending.length) {
      const mapi = pending[next++];
      if (mapi) await syncOne(mapi);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  api.close();
  return pending.length;
}
