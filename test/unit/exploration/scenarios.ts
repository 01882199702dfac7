// The small clusters the exploration starts from, each reached by letting the actors settle
// from a MAPI MachineSet alone (so the start is itself what the actors make), and the scenarios
// run in npm test: the three orders of the issue that found them, and the day-2 operations.
import type { MapiMachineSet } from '../../../src/api/types.js';
import { AWS, CLUSTER } from '../conversion/machine/support.js';
import { Cluster, MAPI_GROUP, type Authority, type State } from './cluster.js';
import { settle, type Scenario } from './explore.js';
import { people, type PersonAction } from './people.js';

/** One AWS MachineSet with `replicas` Machines, settled under `authority`. */
export function settledCluster(replicas: number, authority: Authority): State {
  const set: MapiMachineSet = AWS.machineSet();
  set.spec = { ...set.spec, replicas, authoritativeAPI: 'MachineAPI' };
  delete set.status;
  const empty: State = {
    objects: {},
    instances: {},
    wanted: {},
    goneAskedOf: {},
    installed: true,
    acted: 0,
    created: {},
  };
  const cluster = new Cluster(empty);
  cluster.create({ ...AWS.infrastructure, metadata: { name: 'cluster' } });
  cluster.create(CLUSTER);
  cluster.create(set);
  let state = settle(cluster.state);
  if (authority === 'ClusterAPI') {
    const moving = new Cluster(state);
    moving.patchSpec(moving.get(`${MAPI_GROUP}/MachineSet/${set.metadata.name}`)!, {
      authoritativeAPI: 'ClusterAPI',
    });
    state = settle(moving.state);
  }
  return state;
}

const scenario = (name: string, start: State, script: PersonAction[]): Scenario => ({
  name,
  start,
  script,
});

/** What npm test explores: one MachineSet with `replicas` Machines, each scenario in seconds. */
export function scenarios(replicas = 1): Scenario[] {
  const machineApi = settledCluster(replicas, 'MachineAPI');
  const clusterApi = settledCluster(replicas, 'ClusterAPI');
  return [
    scenario('migrate to ClusterAPI', machineApi, [people.migrate('ClusterAPI')]),
    scenario('migrate to ClusterAPI, then cancel', machineApi, [
      people.migrate('ClusterAPI'),
      people.migrate('MachineAPI'),
    ]),
    scenario('migrate back to MachineAPI', clusterApi, [people.migrate('MachineAPI')]),
    scenario('migrate back, then delete the CAPI MachineSet', clusterApi, [
      people.migrate('MachineAPI'),
      people.deleteCapiMachineSet(),
    ]),
    scenario('migrate to ClusterAPI, then delete the MAPI MachineSet', machineApi, [
      people.migrate('ClusterAPI'),
      people.deleteMapiMachineSet(),
    ]),
    scenario('migrate to ClusterAPI, then delete the CAPI MachineSet', machineApi, [
      people.migrate('ClusterAPI'),
      people.deleteCapiMachineSet(),
    ]),
    scenario('migrate to ClusterAPI, then delete the CAPI Machine', machineApi, [
      people.migrate('ClusterAPI'),
      people.deleteCapiMachine(),
    ]),
    scenario('migrate to ClusterAPI, then delete the MAPI Machine', machineApi, [
      people.migrate('ClusterAPI'),
      people.deleteMapiMachine(),
    ]),
    scenario('migrate back, then delete the CAPI Machine', clusterApi, [
      people.migrate('MachineAPI'),
      people.deleteCapiMachine(),
    ]),
    scenario('migrate to ClusterAPI, then scale up', machineApi, [
      people.migrate('ClusterAPI'),
      people.scaleMapi(replicas + 1),
    ]),
    scenario('migrate back, then scale the CAPI MachineSet up', clusterApi, [
      people.migrate('MachineAPI'),
      people.scaleCapi(replicas + 1),
    ]),
    scenario('under MachineAPI, delete the CAPI MachineSet', machineApi, [
      people.deleteCapiMachineSet(),
    ]),
    scenario('under ClusterAPI, delete the MAPI MachineSet', clusterApi, [
      people.deleteMapiMachineSet(),
    ]),
    scenario('under ClusterAPI, delete the CAPI MachineSet', clusterApi, [
      people.deleteCapiMachineSet(),
    ]),
    scenario(
      'under MachineAPI, delete the CAPI Machine (a remediation of the mirror)',
      machineApi,
      [people.deleteCapiMachine()],
    ),
    scenario(
      'under ClusterAPI, delete the MAPI Machine (a remediation of the mirror)',
      clusterApi,
      [people.deleteMapiMachine()],
    ),
    scenario('uninstall, delete the MAPI MachineSet, reinstall', machineApi, [
      people.uninstall(),
      people.deleteMapiMachineSet(),
    ]),
    scenario('uninstall, delete the MAPI Machine, reinstall', machineApi, [
      people.uninstall(),
      people.deleteMapiMachine(),
    ]),
  ];
}
