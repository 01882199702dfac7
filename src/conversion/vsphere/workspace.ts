// MAPI → CAPI: where in vCenter the VM is placed (the providerSpec's workspace), as the
// VirtualMachineCloneSpec fields of the same meaning. CAPV connects to every server with the
// credentials of its VSphereCluster, those of the Infrastructure's first vCenter.
import { isIP } from 'node:net';
import type { ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import { boundedString } from './clone.js';
import type { VSphereCluster } from './cluster.js';
import { DEFAULT_DATACENTER, MAX_DATACENTER, MAX_INVENTORY_PATH, MAX_SERVER } from './names.js';

export interface Placement {
  server: string;
  datacenter: string;
  folder?: string;
  datastore?: string;
  resourcePool?: string;
}

const HOST_NAME =
  /^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*\.?$/;

export function convertWorkspace(
  spec: ObjectReader,
  cluster: VSphereCluster,
): Placement | undefined {
  const workspace = spec.object('workspace');
  if (workspace === undefined) {
    if (!spec.report.errors.some((e) => e.path === spec.pathOf('workspace'))) {
      spec.report.error(
        spec.pathOf('workspace'),
        'is required; set server, datacenter, folder, datastore and resourcePool to where the ' +
          'machines are created in vCenter.',
      );
    }
    return undefined;
  }
  const server = convertServer(workspace, cluster);
  const datacenter = boundedString(workspace, 'datacenter', MAX_DATACENTER, 'a datacenter name');
  const paths = {
    folder: boundedString(workspace, 'folder', MAX_INVENTORY_PATH, 'an inventory path'),
    datastore: boundedString(workspace, 'datastore', MAX_INVENTORY_PATH, 'an inventory path'),
    resourcePool: boundedString(workspace, 'resourcePool', MAX_INVENTORY_PATH, 'an inventory path'),
  };
  refuseVmGroup(workspace);
  workspace.finish();
  if (server === undefined) return undefined;
  const placement: Placement = { server, datacenter: datacenter ?? DEFAULT_DATACENTER };
  for (const [key, value] of Object.entries(paths)) {
    if (value !== undefined) placement[key as keyof typeof paths] = value;
  }
  return placement;
}

function convertServer(workspace: ObjectReader, cluster: VSphereCluster): string | undefined {
  const server = workspace.requiredString(
    'server',
    'set it to the host name or IP address of the vCenter the machines are created in.',
  );
  if (server === undefined) return undefined;
  const bare = server.startsWith('[') && server.endsWith(']') ? server.slice(1, -1) : server;
  if (server.length > MAX_SERVER || (!HOST_NAME.test(server) && isIP(bare) === 0)) {
    workspace.report.error(
      workspace.pathOf('server'),
      `is ${quote(server)}, which is not a host name or IP address; set it to the vCenter's.`,
    );
    return undefined;
  }
  if (cluster.server !== undefined && server !== cluster.server) {
    workspace.report.error(
      workspace.pathOf('server'),
      `is ${quote(server)}, but Cluster API's vSphere provider connects with the credentials ` +
        `of the Infrastructure's first vCenter, ${quote(cluster.server)} ` +
        '(spec.platformSpec.vsphere.vcenters[0]), and could not create these machines; keep the ' +
        'MachineSet on Machine API, or create it in that vCenter.',
    );
    return undefined;
  }
  return server;
}

/** A VM-host group is a Machine API placement CAPV has no field for. */
function refuseVmGroup(workspace: ObjectReader): void {
  const vmGroup = workspace.string('vmGroup');
  if (vmGroup === undefined) return;
  workspace.report.error(
    workspace.pathOf('vmGroup'),
    `is ${quote(vmGroup)}, but Cluster API's vSphere provider cannot add machines to a vCenter ` +
      'VM group (host-group zones); keep the MachineSet on Machine API, or remove vmGroup.',
  );
}
