// CAPI → MAPI for PowerVS: the `spec.template.spec` of an IBMPowerVSMachineTemplate (v1beta2)
// back to a PowerVSMachineProviderConfig (machine.openshift.io/v1). Pure and deterministic, and
// it never throws. Each template field becomes its providerSpec field as CAPIBM uses it at run
// time; what Machine API cannot express is a field error, what CAPIBM ignores is a warning.
// Fields Cluster API cannot express come from the providerSpec the MAPI MachineSet has now.
import { computeToMapi } from './to-mapi-compute.js';
import { keptFromCurrent } from './kept-from-current.js';
import { PROVIDER_SPEC_API_VERSION, PROVIDER_SPEC_KIND } from './names.js';
import {
  imageToMapi,
  networkToMapi,
  withIgnoredFieldsOf,
  workspaceToMapi,
} from './to-mapi-resource-reference.js';
import {
  ConversionReport,
  describeValue,
  isJsonObject,
  ObjectReader,
  withoutUndefined,
} from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import type { Conversion, ReverseContext } from '../types.js';

export function powerVsToMapi(
  templateSpec: unknown,
  context: ReverseContext,
): Conversion<Record<string, unknown>> {
  const report = new ConversionReport();
  if (!isJsonObject(templateSpec)) {
    const message =
      `must be an object (an IBMPowerVSMachineTemplate's machine spec), but is ` +
      `${describeValue(templateSpec)}; set the PowerVS machine settings there.`;
    return { ok: false, errors: [{ path: context.path, message }] };
  }
  const spec = ObjectReader.of(templateSpec, context.path, report);
  if (spec === undefined) return { ok: false, errors: report.errors };

  const serviceInstance = workspaceToMapi(spec, report);
  const image = imageToMapi(spec, report);
  const network = networkToMapi(spec, report);
  const keyPairName = sshKeyToMapi(spec, context, report);
  const compute = computeToMapi(spec, report);
  rejectFieldsWithoutEquivalent(spec, report);
  spec.finishToMachineApi({ orKeepOnClusterApi: true });
  warnAboutFailureDomain(context, report);
  if (
    report.errors.length > 0 ||
    !serviceInstance ||
    !image ||
    !network ||
    keyPairName === undefined ||
    !compute
  ) {
    return { ok: false, errors: report.errors };
  }

  const kept = keptFromCurrent(context.current, context.controlPlane, report);
  const current = isJsonObject(context.current) ? context.current : {};
  const userDataSecretName = context.userDataSecretName;
  const providerSpec = withoutUndefined({
    apiVersion: PROVIDER_SPEC_API_VERSION,
    kind: PROVIDER_SPEC_KIND,
    metadata: kept.metadata,
    serviceInstance: withIgnoredFieldsOf(serviceInstance, current.serviceInstance),
    image: withIgnoredFieldsOf(image, current.image),
    network: withIgnoredFieldsOf(network, current.network),
    keyPairName,
    ...compute,
    userDataSecret: userDataSecretName ? { name: userDataSecretName } : undefined,
    credentialsSecret: kept.credentialsSecret,
    loadBalancers: kept.loadBalancers,
  });
  return { ok: true, value: providerSpec, warnings: report.warnings };
}

function sshKeyToMapi(
  spec: ObjectReader,
  context: ReverseContext,
  report: ConversionReport,
): string | undefined {
  const errorsBefore = report.errors.length;
  const sshKey = spec.string('sshKey');
  if (sshKey !== undefined || report.errors.length > errorsBefore) return sshKey;
  const cluster = context.infrastructure.status?.infrastructureName;
  const example = cluster ? ` (the installer's is ${cluster}-key)` : '';
  report.error(
    spec.pathOf('sshKey'),
    'is required, because Machine API creates every machine with a key pair (keyPairName); ' +
      `set it to the name of an SSH key pair in the PowerVS workspace${example}.`,
  );
  return undefined;
}

/**
 * The template fields refused whatever their value (rejectFieldsWithoutEquivalent), as paths in
 * `spec.template.spec`. The admission policy mapi-capi-sync-infrastructure-expressible refuses the
 * same ones; a unit test keeps them equal.
 */
export const TEMPLATE_FIELDS_WITHOUT_EQUIVALENT: readonly string[] = ['imageRef', 'providerID'];

/** Template fields a providerSpec has no place for. */
function rejectFieldsWithoutEquivalent(spec: ObjectReader, report: ConversionReport): void {
  if (spec.raw('imageRef') !== undefined) {
    report.error(
      spec.pathOf('imageRef'),
      'points at an IBMPowerVSImage object, which has no Machine API equivalent; name the boot ' +
        'image with image.name or image.id instead, or keep the MachineSet on Cluster API.',
    );
  }
  if (spec.raw('providerID') !== undefined) {
    report.error(
      spec.pathOf('providerID'),
      'has no Machine API equivalent: the provider sets it on each machine, and every machine ' +
        'made from a template would share it; remove it from the template.',
    );
  }
}

/** CAPIBM places a machine by its workspace and never reads the Machine's failure domain. */
function warnAboutFailureDomain(context: ReverseContext, report: ConversionReport): void {
  if (!context.failureDomain) return;
  report.warn(
    `The Cluster API MachineSet's failureDomain ${quote(context.failureDomain)} is not ` +
      'converted: a PowerVS machine runs in the zone of its workspace (serviceInstance), and ' +
      'Cluster API does not use the failure domain to place it.',
  );
}
