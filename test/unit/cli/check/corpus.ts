// Good and bad MachineSets of every platform, with the fields each bad one must be blocked on.
import type { Infrastructure, MapiMachineSet } from '../../../../src/api/types.js';
import {
  platformMachineSets,
  PROVIDER_SPEC_PATH,
  type PlatformMachineSet,
} from '../../../support/conversion.js';

/** A change that breaks a platform's providerSpec, and the field the report must name. */
interface Breakage {
  what: string;
  change(providerSpec: Record<string, unknown>): void;
  path: string;
}

const PLATFORM_BREAKAGES: Record<string, Breakage> = {
  AWS: {
    what: 'an AMI given by ARN',
    change: (spec) => (spec.ami = { arn: 'arn:aws:ec2:us-east-1::image/ami-0abcdef1234567890' }),
    path: `${PROVIDER_SPEC_PATH}.ami.arn`,
  },
  Azure: {
    what: 'no vmSize',
    change: (spec) => delete spec.vmSize,
    path: `${PROVIDER_SPEC_PATH}.vmSize`,
  },
  GCP: {
    what: 'no machineType',
    change: (spec) => delete spec.machineType,
    path: `${PROVIDER_SPEC_PATH}.machineType`,
  },
  OpenStack: {
    what: 'no cloudsSecret',
    change: (spec) => delete spec.cloudsSecret,
    path: `${PROVIDER_SPEC_PATH}.cloudsSecret`,
  },
  PowerVS: {
    what: 'no keyPairName',
    change: (spec) => delete spec.keyPairName,
    path: `${PROVIDER_SPEC_PATH}.keyPairName`,
  },
  VSphere: {
    what: 'no numCPUs',
    change: (spec) => delete spec.numCPUs,
    path: `${PROVIDER_SPEC_PATH}.numCPUs`,
  },
};

export interface PlatformCorpus {
  platform: string;
  templateKind: string;
  infrastructure: Infrastructure;
  /** Converts in both directions. */
  good(name?: string): MapiMachineSet;
  /** Broken in the platform's own way, with a misspelled field and an unknown delete policy. */
  bad(name?: string): MapiMachineSet;
  badWhat: string;
  /** Every field the bad one is blocked on. */
  badPaths: string[];
}

const MISSPELLED_FIELD = 'instanceTypo';

export function platformCorpus(): PlatformCorpus[] {
  return platformMachineSets().map((p: PlatformMachineSet): PlatformCorpus => {
    const breakage = PLATFORM_BREAKAGES[p.platform];
    if (!breakage) throw new Error(`no breakage for ${p.platform}`);
    const named = (name: string): MapiMachineSet => {
      const machineSet = p.machineSet();
      machineSet.metadata.name = name;
      return machineSet;
    };
    return {
      platform: p.platform,
      templateKind: p.converter.template.kind,
      infrastructure: p.infrastructure,
      good: (name = `${p.platform.toLowerCase()}-good`) => named(name),
      bad: (name = `${p.platform.toLowerCase()}-bad`) => {
        const machineSet = named(name);
        const spec = machineSet.spec.template?.spec?.providerSpec?.value as Record<string, unknown>;
        breakage.change(spec);
        spec[MISSPELLED_FIELD] = 'x';
        machineSet.spec.deletePolicy = 'Biggest';
        return machineSet;
      },
      badWhat: breakage.what,
      badPaths: [breakage.path, `${PROVIDER_SPEC_PATH}.${MISSPELLED_FIELD}`, 'spec.deletePolicy'],
    };
  });
}
