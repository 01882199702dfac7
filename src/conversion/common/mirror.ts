// The steps the mirror of a MachineSet and the mirror of a Machine take alike around the
// providerSpec: the mirror's name, the providerSpec's kind, and the call to the platform converter.
import { objectNameProblem } from '../../model/kube-names.js';
import { type ConversionReport, isJsonObject } from './field-reader.js';
import { quote, shorten } from './quote.js';
import type {
  Conversion,
  ConversionContext,
  PlatformConverter,
  ProviderConversion,
} from '../types.js';

/** The kind of MAPI object mirrored, as messages name it. */
export type MirroredKind = 'MachineSet' | 'Machine';

/** The providerSpec as the MAPI reader found it; `readable` is false below a field of the wrong type. */
export interface ProviderSpecInput {
  readable: boolean;
  value: unknown;
}

/**
 * The mirror has the MAPI object's name, so the name must be one Cluster API accepts; `fix`
 * ends the message, e.g. `rename the MachineSet`.
 */
export function checkMirrorName(
  name: string | undefined,
  kind: MirroredKind,
  fix: string,
  report: ConversionReport,
): void {
  const nameProblem = name === undefined ? undefined : objectNameProblem(name);
  if (nameProblem === undefined) return;
  report.error(
    'metadata.name',
    `is ${quote(name ?? '')}, which is not a valid name for a Cluster API ${kind}: ${nameProblem}; ${fix}.`,
  );
}

/**
 * False, after one error, when the providerSpec names another platform's kind: its fields would
 * only bury that error, so the caller stops there. A missing kind is the converter's to judge.
 */
export function isPlatformProviderSpec(
  providerSpec: unknown,
  converter: PlatformConverter,
  path: string,
  kind: MirroredKind,
  report: ConversionReport,
): boolean {
  const specKind = isJsonObject(providerSpec) ? providerSpec.kind : undefined;
  if (typeof specKind !== 'string' || specKind === converter.providerSpecKind) return true;
  report.error(
    `${path}.kind`,
    `is ${shorten(specKind)}, but this cluster's platform is ${converter.platform}, whose machines use ${converter.providerSpecKind}; a ${kind} can only be mirrored for the cluster's own platform.`,
  );
  return false;
}

/**
 * The platform converter's result, its errors added to `report`; undefined when the providerSpec
 * could not be read (the reader has reported why).
 */
export function convertProviderSpec(
  providerSpec: ProviderSpecInput,
  converter: PlatformConverter,
  context: ConversionContext,
  report: ConversionReport,
): Conversion<ProviderConversion> | undefined {
  if (!providerSpec.readable) return undefined;
  const provider = converter.toCapi(providerSpec.value, context);
  if (!provider.ok) report.errors.push(...provider.errors);
  return provider;
}
