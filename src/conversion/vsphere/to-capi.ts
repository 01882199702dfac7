// MAPI → CAPI for vSphere: a MAPI VSphereMachineProviderSpec (machine.openshift.io/v1beta1) → the
// `spec.template.spec` of a CAPV VSphereMachineTemplate (v1beta1). Pure and deterministic. Every
// field is converted, or reported as an error with what to do: the mirror must never quietly
// differ from what the administrator wrote. Where Machine API and CAPV default differently (the
// clone mode, the datacenter, the power-off mode), the value is written out.
//
// There is no failure domain: Machine API places a VM by its workspace alone, and a CAPV failure
// domain names a VSphereDeploymentZone, which CAPV requires to exist and which would override
// the workspace.
import { convertCloneSource } from './clone.js';
import { vsphereCluster } from './cluster.js';
import { convertDataDisks } from './disks.js';
import { convertHardware } from './hardware.js';
import {
  CAPV_API_VERSION,
  DEFAULT_CREDENTIALS_SECRET,
  POWER_OFF_MODE,
  PROVIDER_SPEC_API_VERSION,
  PROVIDER_SPEC_KIND,
} from './names.js';
import { convertNetwork } from './network.js';
import { convertTagIds } from './tags.js';
import { convertWorkspace } from './workspace.js';
import { withoutUndefined } from '../common/field-reader.js';
import {
  checkCredentialsSecretName,
  openProviderSpec,
  type ProviderSpecOwner,
  readUserDataSecretName,
} from '../common/provider-spec.js';
import type { Conversion, ConversionContext, ProviderConversion } from '../types.js';

/** What identifies the platform on both sides: its providerSpec kind and template kind. */
export const VSPHERE_PLATFORM: ProviderSpecOwner = {
  platform: 'VSphere',
  providerSpecKind: PROVIDER_SPEC_KIND,
  template: {
    apiVersion: CAPV_API_VERSION,
    kind: 'VSphereMachineTemplate',
    plural: 'vspheremachinetemplates',
  },
};

export function vsphereToCapi(
  providerSpec: unknown,
  context: ConversionContext,
): Conversion<ProviderConversion> {
  const opened = openProviderSpec(providerSpec, context, VSPHERE_PLATFORM, [
    PROVIDER_SPEC_API_VERSION,
  ]);
  if (!opened.ok) return opened;
  const { spec, report } = opened;
  const cluster = vsphereCluster(context.infrastructure);
  checkCredentialsSecretName(
    spec,
    DEFAULT_CREDENTIALS_SECRET,
    "Cluster API's vSphere provider connects with the credentials of the cluster's " +
      'VSphereCluster, not a secret per machine',
    report,
  );
  const userDataSecretName = readUserDataSecretName(spec);
  const clone = convertCloneSource(spec);
  const placement = convertWorkspace(spec, cluster);
  const network = convertNetwork(spec, cluster);
  const hardware = convertHardware(spec);
  const tagIDs = convertTagIds(spec);
  const dataDisks = convertDataDisks(spec);
  spec.finish();

  // Each missing part has recorded its error.
  if (report.errors.length > 0 || !clone || !placement || !network || !hardware) {
    return { ok: false, errors: report.errors };
  }
  const templateSpec = withoutUndefined({
    ...clone,
    ...placement,
    network,
    ...hardware,
    tagIDs,
    dataDisks,
    powerOffMode: POWER_OFF_MODE,
  });
  return { ok: true, value: { templateSpec, userDataSecretName }, warnings: report.warnings };
}
