import { expect } from 'chai';
import type { KubeObject, MapiMachineSet } from '../../../../src/api/types.js';
import { PatchError, type MigrateClient } from '../../../../src/cli/migrate/cluster.js';
import { runMigrate, type MigrateIO } from '../../../../src/cli/migrate/command.js';
import type { OperatorState } from '../../../../src/cli/migrate/plan.js';
import type { ClusterReader } from '../../../../src/cli/plugin/cluster.js';
import type { Resource } from '../../../../src/kube/resources.js';
import { fleetOf, INFRASTRUCTURE, machinePair, machineSet } from './fleet.js';

/**
 * A cluster whose controller moves a MachineSet one step per read of the MAPI MachineSets:
 * into Migrating, then onto the authority spec asks for, synchronized there, with its Machines.
 */
function simulatedCluster(
  machineSets: MapiMachineSet[],
  operator: OperatorState = { kind: 'absent' },
) {
  const machines = [machinePair('a-1', 'a'), machinePair('b-1', 'b'), machinePair('b-2', 'b')];
  const fleet = fleetOf(
    machineSets,
    machines.filter((m) =>
      machineSets.some((s) => s.metadata.name === m.mapi.metadata.ownerReferences![0]!.name),
    ),
  );
  const patches: string[] = [];
  let reads = 0;
  const step = () => {
    for (const set of fleet.mapiMachineSets) {
      const status = set.status!;
      const wanted = set.spec.authoritativeAPI!;
      if (status.authoritativeAPI === wanted) continue;
      if (status.authoritativeAPI !== 'Migrating') {
        status.synchronizedAPI = status.authoritativeAPI;
        status.authoritativeAPI = 'Migrating';
        continue;
      }
      status.authoritativeAPI = wanted;
      status.synchronizedAPI = wanted;
      status.synchronizedGeneration = wanted === 'ClusterAPI' ? 5 : 3;
      for (const machine of fleet.mapiMachines.filter(
        (m) => m.metadata.ownerReferences![0]!.name === set.metadata.name,
      )) {
        machine.spec.authoritativeAPI = wanted;
        machine.status!.authoritativeAPI = wanted;
        machine.status!.synchronizedGeneration = wanted === 'ClusterAPI' ? 1 : 2;
      }
    }
  };
  const reader: ClusterReader = {
    server: 'https://fake:6443',
    close: () => undefined,
    list<T extends KubeObject>(resource: Resource): Promise<T[]> {
      if (resource.group === 'machine.openshift.io' && resource.plural === 'machinesets') {
        reads++;
        step();
      }
      if (resource.kind === 'MachineAutoscaler') {
        // a cluster without the CRD answers 404, as the reader reports it
        if (!fleet.autoscalers)
          return Promise.reject(new Error('not served', { cause: { code: 404 } }));
        return Promise.resolve(structuredClone(fleet.autoscalers) as unknown as T[]);
      }
      const key =
        `${resource.group === 'machine.openshift.io' ? 'mapi' : 'capi'}${resource.kind}s` as const;
      const lists = {
        mapiMachineSets: fleet.mapiMachineSets,
        capiMachineSets: fleet.capiMachineSets,
        mapiMachines: fleet.mapiMachines,
        capiMachines: fleet.capiMachines,
      } as Record<string, KubeObject[]>;
      return Promise.resolve(structuredClone(lists[key]!) as T[]);
    },
  };
  /** The bootstrap Secrets the Cluster API namespace lacks, or why they cannot be read. */
  const secrets: { missing: Set<string>; notRead?: string } = { missing: new Set() };
  const client: MigrateClient = {
    infrastructure: () => Promise.resolve(INFRASTRUCTURE),
    missingSecrets: (namespace) =>
      Promise.resolve(
        secrets.notRead !== undefined
          ? { namespace, notRead: secrets.notRead }
          : { namespace, missing: secrets.missing },
      ),
    operator: () => Promise.resolve(operator),
    setAuthority(_namespace, name, _rv, target) {
      patches.push(`${name}=${target}`);
      fleet.mapiMachineSets.find((m) => m.metadata.name === name)!.spec.authoritativeAPI = target;
      return Promise.resolve();
    },
  };
  return { fleet, patches, reader, client, secrets, reads: () => reads };
}

function io(cluster: ReturnType<typeof simulatedCluster>, signal?: AbortSignal) {
  const captured = { out: '', err: '' };
  const value: MigrateIO = {
    stdout: { write: (t: string) => (captured.out += t), isTTY: false },
    stderr: { write: (t: string) => (captured.err += t) },
    env: {},
    home: '/nonexistent',
    now: () => new Date('2026-03-01T12:00:00Z'),
    refreshMs: 1,
    reader: cluster.reader,
    client: cluster.client,
    ...(signal ? { signal } : {}),
  };
  return { io: value, captured };
}

describe('migrate command (against a simulated controller)', () => {
  it('migrates in waves, patching each MachineSet once, and says so', async () => {
    const cluster = simulatedCluster(['a', 'b', 'c'].map((n) => machineSet(n)));
    const { io: streams, captured } = io(cluster);
    const code = await runMigrate(['--all', '--to', 'ClusterAPI', '--max-in-flight', '2'], streams);
    expect(captured.err).to.equal('');
    expect(code).to.equal(0);
    expect(cluster.patches).to.deep.equal(['a=ClusterAPI', 'b=ClusterAPI', 'c=ClusterAPI']);
    expect(captured.out).to.include(
      'ClusterOperator mapi-capi-sync not found: its Degraded condition is not checked.',
    );
    expect(captured.out).to.match(/a \(wave 1\/2\): on ClusterAPI, Machines 1\/1 on ClusterAPI/);
    expect(captured.out).to.include(
      '3 MachineSets: 3 migrated, 0 already on ClusterAPI; done: every selected MachineSet is on ClusterAPI.',
    );

    // Again: nothing to do, nothing written.
    const again = io(cluster);
    expect(await runMigrate(['--all', '--to', 'ClusterAPI'], again.io)).to.equal(0);
    expect(cluster.patches).to.have.length(3);
    expect(again.captured.out).to.include('0 migrated, 3 already on ClusterAPI');

    // --rollback: back to Machine API.
    const back = io(cluster);
    expect(await runMigrate(['--all', '--to', 'ClusterAPI', '--rollback'], back.io)).to.equal(0);
    expect(cluster.patches.slice(3)).to.deep.equal([
      'a=MachineAPI',
      'b=MachineAPI',
      'c=MachineAPI',
    ]);
  });

  it('--dry-run prints the plan and writes nothing; -o json is one document', async () => {
    const cluster = simulatedCluster(['a', 'b'].map((n) => machineSet(n)));
    const { io: streams, captured } = io(cluster);
    expect(await runMigrate(['a', 'b', '--to', 'ClusterAPI', '--dry-run'], streams)).to.equal(0);
    expect(cluster.patches).to.deep.equal([]);
    expect(captured.out).to.include(
      'Plan: 2 MachineSets of openshift-machine-api to ClusterAPI in 2 waves of at most 1.',
    );
    expect(captured.out).to.include(
      '  a   MachineAPI: patch spec.authoritativeAPI: ClusterAPI (a JSON patch testing the resourceVersion read)',
    );
    expect(captured.out).to.include('Nothing was written (--dry-run).');

    const json = io(cluster);
    expect(await runMigrate(['a', 'b', '--to', 'ClusterAPI', '-o', 'json'], json.io)).to.equal(0);
    const document = JSON.parse(json.captured.out) as {
      result: string;
      machineSets: { outcome: string }[];
    };
    expect(document.result).to.equal('done');
    expect(document.machineSets.map((m) => m.outcome)).to.deep.equal(['migrated', 'migrated']);
  });

  it('refuses when one cannot migrate, naming every field; --skip-blocked migrates the others', async () => {
    const cluster = simulatedCluster([machineSet('a'), machineSet('bad', { broken: true })]);
    const { io: streams, captured } = io(cluster);
    expect(await runMigrate(['--all', '--to', 'ClusterAPI'], streams)).to.equal(1);
    expect(cluster.patches).to.deep.equal([]);
    expect(captured.err).to.match(
      /^error: 1 MachineSet cannot migrate to ClusterAPI; nothing was written:\n {2}bad\n {4}blocking: /,
    );
    expect(captured.err).to.include('blocking: spec.deletePolicy:');

    const skipping = io(cluster);
    expect(
      await runMigrate(['--all', '--to', 'ClusterAPI', '--skip-blocked'], skipping.io),
    ).to.equal(0);
    expect(cluster.patches).to.deep.equal(['a=ClusterAPI']);
    expect(skipping.captured.out).to.include('1 migrated, 0 already on ClusterAPI, 1 skipped');
  });

  it('towards ClusterAPI, a MachineSet whose bootstrap Secret Cluster API lacks is blocked, naming how to copy it', async () => {
    const cluster = simulatedCluster([machineSet('a')]);
    cluster.secrets.missing.add('worker-user-data');
    const { io: streams, captured } = io(cluster);
    expect(await runMigrate(['--all', '--to', 'ClusterAPI'], streams)).to.equal(1);
    expect(cluster.patches).to.deep.equal([]);
    expect(captured.err).to.include(
      'blocking: (migration gate) spec.template.spec.providerSpec.value.userDataSecret.name: names the Secret worker-user-data, which does not exist in openshift-cluster-api',
    );
    expect(captured.err).to.include('oc get secret worker-user-data -n openshift-machine-api');

    // unreadable (no permission): said, and nothing held
    cluster.secrets.notRead = 'cannot get secrets in openshift-cluster-api: forbidden';
    const unread = io(cluster);
    expect(await runMigrate(['--all', '--to', 'ClusterAPI'], unread.io)).to.equal(0);
    expect(unread.captured.out).to.include(
      'bootstrap Secrets in openshift-cluster-api not checked: cannot get secrets',
    );
    expect(cluster.patches).to.deep.equal(['a=ClusterAPI']);
  });

  it('a MachineSet a MachineAutoscaler scales is blocked, naming it and the way out', async () => {
    const cluster = simulatedCluster([machineSet('a'), machineSet('b')]);
    cluster.fleet.autoscalers = [
      {
        apiVersion: 'autoscaling.openshift.io/v1beta1',
        kind: 'MachineAutoscaler',
        metadata: { name: 'scales-b', namespace: 'openshift-machine-api' },
        spec: {
          minReplicas: 1,
          maxReplicas: 3,
          scaleTargetRef: {
            apiVersion: 'machine.openshift.io/v1beta1',
            kind: 'MachineSet',
            name: 'b',
          },
        },
      },
    ];
    const { io: streams, captured } = io(cluster);
    expect(await runMigrate(['--all', '--to', 'ClusterAPI'], streams)).to.equal(1);
    expect(cluster.patches).to.deep.equal([]);
    expect(captured.err).to.include(
      '  b\n    blocking: (migration gate) MachineAutoscaler scales-b spec.scaleTargetRef: names this MachineSet',
    );
    expect(captured.err).to.include(
      'oc delete machineautoscaler -n openshift-machine-api scales-b',
    );

    // without the CRD (404), nothing is held
    delete cluster.fleet.autoscalers;
    const served = io(cluster);
    expect(await runMigrate(['--all', '--to', 'ClusterAPI'], served.io)).to.equal(0);
    expect(cluster.patches).to.deep.equal(['a=ClusterAPI', 'b=ClusterAPI']);
  });

  it('interrupted mid-wave, then run again: waits for what was patched, never patches it again', async () => {
    const cluster = simulatedCluster(['a', 'b'].map((n) => machineSet(n)));
    const stop = new AbortController();
    const first = io(cluster, stop.signal);
    const patch = cluster.client.setAuthority.bind(cluster.client);
    cluster.client.setAuthority = async (...args) => {
      await patch(...args);
      stop.abort();
    };
    expect(await runMigrate(['--all', '--to', 'ClusterAPI'], first.io)).to.equal(1);
    expect(cluster.patches).to.deep.equal(['a=ClusterAPI']);
    expect(first.captured.err).to.equal('Interrupted.\n');
    expect(first.captured.out).to.include(
      '  to continue:   oc mapi-capi-sync migrate --all --to ClusterAPI\n',
    );
    expect(first.captured.out).to.include(
      '  to go back:    oc mapi-capi-sync migrate a --to ClusterAPI --rollback\n',
    );

    cluster.client.setAuthority = patch;
    const second = io(cluster);
    expect(await runMigrate(['--all', '--to', 'ClusterAPI'], second.io)).to.equal(0);
    expect(cluster.patches).to.deep.equal(['a=ClusterAPI', 'b=ClusterAPI']);
  });

  it('the way back moves exactly what the run moved, not what was on the target before it', async () => {
    const cluster = simulatedCluster([machineSet('c', { spec: 'ClusterAPI' }), machineSet('d')]);
    const stop = new AbortController();
    const first = io(cluster, stop.signal);
    const patch = cluster.client.setAuthority.bind(cluster.client);
    cluster.client.setAuthority = async (...args) => {
      await patch(...args);
      stop.abort();
    };
    expect(await runMigrate(['--all', '--to', 'ClusterAPI', '-o', 'json'], first.io)).to.equal(1);
    expect(cluster.patches).to.deep.equal(['d=ClusterAPI']);
    const document = JSON.parse(first.captured.out) as { next: { rollback?: string } };
    expect(document.next.rollback).to.equal(
      'oc mapi-capi-sync migrate d --to ClusterAPI --rollback -o json',
    );

    cluster.client.setAuthority = patch;
    const back = io(cluster);
    expect(await runMigrate(['d', '--to', 'ClusterAPI', '--rollback'], back.io)).to.equal(0);
    expect(cluster.patches).to.deep.equal(['d=ClusterAPI', 'd=MachineAPI']);

    // stopped before moving anything: nothing to go back
    const none = simulatedCluster([machineSet('e')]);
    none.client.setAuthority = () =>
      Promise.reject(
        new PatchError('setting spec.authoritativeAPI of MachineSet e failed: refused', false),
      );
    const refused = io(none);
    expect(await runMigrate(['e', '--to', 'ClusterAPI'], refused.io)).to.equal(1);
    expect(refused.captured.out).to.include(
      '  to go back:    nothing to do: this run moved no MachineSet to ClusterAPI\n',
    );
  });

  it('stops at a failure with the message and what to run next', async () => {
    const cluster = simulatedCluster(['a', 'b'].map((n) => machineSet(n)));
    // someone deletes a's Machine during its wave
    const list = cluster.reader.list.bind(cluster.reader);
    cluster.reader.list = <T extends KubeObject>(resource: Resource, namespace: string) => {
      if (cluster.patches.length > 0)
        cluster.fleet.mapiMachines = cluster.fleet.mapiMachines.filter(
          (m) => m.metadata.name !== 'a-1',
        );
      return list<T>(resource, namespace);
    };
    const { io: streams, captured } = io(cluster);
    expect(await runMigrate(['--all', '--to', 'ClusterAPI'], streams)).to.equal(1);
    expect(captured.err).to.equal(
      'error: a: a machine was created or deleted during its migration: MAPI Machine a-1 was deleted\n',
    );
    expect(cluster.patches).to.deep.equal(['a=ClusterAPI']);
    expect(captured.out).to.match(
      /2 MachineSets: 0 migrated, 0 already on ClusterAPI, 1 failed, 1 not started; stopped on a failure\./,
    );
  });

  it('bad command lines: exit 2 with the usage hint; names not found: exit 1', async () => {
    const cluster = simulatedCluster([machineSet('a')]);
    const bad = io(cluster);
    expect(await runMigrate(['--all'], bad.io)).to.equal(2);
    expect(bad.captured.err).to.equal(
      "error: --to is required: --to ClusterAPI or --to MachineAPI\nSee 'oc mapi-capi-sync migrate --help' for usage.\n",
    );
    const missing = io(cluster);
    expect(await runMigrate(['a', 'zz', '--to', 'ClusterAPI'], missing.io)).to.equal(1);
    expect(missing.captured.err).to.equal(
      'error: MachineSet "zz" not found in namespace openshift-machine-api\n',
    );
    expect(cluster.patches).to.deep.equal([]);
  });
});
