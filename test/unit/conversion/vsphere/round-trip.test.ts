// Round trips through both vSphere converters, over generated specs: MAPI → CAPI → MAPI gives the
// providerSpec back up to the documented normalisation (docs/platforms/vsphere.md), and
// CAPI → MAPI → CAPI gives the template spec back.
import { expect } from 'chai';
import fc from 'fast-check';
import {
  compact,
  looseTemplateSpec,
  mapiProviderSpec,
  templateSpec,
  type Json,
} from './round-trip-arbitraries.js';
import { infrastructure, PATH, TEMPLATE_PATH, VCENTER } from './support.js';
import { vsphereConverter } from '../../../../src/conversion/vsphere/index.js';
import type { ProviderConversion, ReverseContext } from '../../../../src/conversion/types.js';
import { expectOk } from '../../../support/conversion.js';

const RUNS = { numRuns: 150 };

function toCapi(providerSpec: unknown): ProviderConversion {
  const context = { infrastructure: infrastructure(), path: PATH, controlPlane: false };
  return expectOk(vsphereConverter.toCapi(providerSpec, context)).value;
}

function toMapi(
  capi: Pick<ProviderConversion, 'templateSpec' | 'userDataSecretName'>,
  current?: unknown,
): { value: Json; warnings: string[] } {
  const context: ReverseContext = {
    infrastructure: infrastructure(),
    path: TEMPLATE_PATH,
    controlPlane: false,
    current,
    ...(capi.userDataSecretName ? { userDataSecretName: capi.userDataSecretName } : {}),
  };
  return expectOk(vsphereConverter.toMapi!(capi.templateSpec, context));
}

/** A non-empty list, else undefined. */
function list(value: unknown): unknown[] | undefined {
  return Array.isArray(value) && value.length > 0 ? value : undefined;
}

/** A non-empty string, else undefined. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The documented normalisation: kind and apiVersion set; the clone mode written out (fullClone
 * when unset); Go's empty values gone; the default user data and credentials secrets. Without the
 * current providerSpec, metadata is gone.
 */
function normalised(spec: Json, withCurrent: boolean): Json {
  const workspace = spec.workspace as Json;
  const devices = (spec.network as { devices: Json[] }).devices;
  const userData = text((spec.userDataSecret as Json | undefined)?.name) ?? 'worker-user-data';
  return compact({
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'VSphereMachineProviderSpec',
    metadata: withCurrent ? spec.metadata : undefined,
    template: spec.template,
    cloneMode: text(spec.cloneMode) ?? 'fullClone',
    snapshot: text(spec.snapshot),
    workspace: compact({
      server: workspace.server,
      datacenter: text(workspace.datacenter),
      folder: text(workspace.folder),
      datastore: text(workspace.datastore),
      resourcePool: text(workspace.resourcePool),
    }),
    network: {
      devices: devices.map((d) =>
        compact({
          networkName: d.networkName,
          gateway: text(d.gateway),
          nameservers: list(d.nameservers),
          addressesFromPools: list(d.addressesFromPools),
        }),
      ),
    },
    numCPUs: spec.numCPUs,
    numCoresPerSocket: spec.numCoresPerSocket || undefined,
    memoryMiB: spec.memoryMiB,
    diskGiB: spec.diskGiB || undefined,
    tagIDs: list(spec.tagIDs),
    dataDisks: list(spec.dataDisks),
    userDataSecret: { name: userData },
    credentialsSecret: { name: 'vsphere-cloud-credentials' },
  });
}

describe('vSphere round trips', () => {
  describe('MAPI → CAPI → MAPI', () => {
    it('gives the providerSpec back, up to the normalisation, with the current providerSpec', () => {
      fc.assert(
        fc.property(mapiProviderSpec, (spec) => {
          const back = toMapi(toCapi(spec), spec);
          expect(back.value).to.deep.equal(normalised(spec, true));
          expect(back.warnings).to.deep.equal([]);
        }),
        RUNS,
      );
    });

    it('gives it back without metadata when there is no current providerSpec', () => {
      fc.assert(
        fc.property(mapiProviderSpec, (spec) => {
          expect(toMapi(toCapi(spec)).value).to.deep.equal(normalised(spec, false));
        }),
        RUNS,
      );
    });

    it('gives a normalised providerSpec back exactly', () => {
      fc.assert(
        fc.property(mapiProviderSpec, (spec) => {
          const canonical = normalised(spec, true);
          expect(toMapi(toCapi(canonical), canonical).value).to.deep.equal(canonical);
        }),
        RUNS,
      );
    });

    it('the generator covers every field and every spelling the forward converter accepts', () => {
      const seen = new Set<string>();
      const note = (prefix: string, object: Json) => {
        for (const [key, value] of Object.entries(object)) {
          seen.add(`${prefix}${key}`);
          if (value === '' || (Array.isArray(value) && value.length === 0) || value === 0) {
            seen.add(`${prefix}${key}:empty`);
          }
        }
      };
      fc.assert(
        fc.property(mapiProviderSpec, (spec) => {
          note('', spec);
          note('workspace.', spec.workspace as Json);
          for (const d of (spec.network as { devices: Json[] }).devices) note('device.', d);
          if (typeof spec.cloneMode === 'string') seen.add(`cloneMode:${spec.cloneMode}`);
        }),
        { numRuns: 400 },
      );
      const fields = [
        'apiVersion',
        'kind',
        'metadata',
        'template',
        'cloneMode',
        'snapshot',
        'numCPUs',
        'numCoresPerSocket',
        'memoryMiB',
        'diskGiB',
        'tagIDs',
        'dataDisks',
        'userDataSecret',
        'credentialsSecret',
        'workspace.server',
        'workspace.datacenter',
        'workspace.folder',
        'workspace.datastore',
        'workspace.resourcePool',
        'workspace.vmGroup',
        'device.networkName',
        'device.gateway',
        'device.nameservers',
        'device.addressesFromPools',
        'device.ipAddrs',
      ];
      expect([...seen]).to.include.members([
        ...fields,
        'cloneMode:',
        'cloneMode:fullClone',
        'cloneMode:linkedClone',
        'snapshot:empty',
        'numCoresPerSocket:empty',
        'diskGiB:empty',
        'tagIDs:empty',
        'dataDisks:empty',
        'workspace.datacenter:empty',
        'device.gateway:empty',
        'device.nameservers:empty',
        'device.addressesFromPools:empty',
        'device.ipAddrs:empty',
      ]);
    });
  });

  describe('CAPI → MAPI → CAPI', () => {
    const context = fc.record({
      // Cluster API's webhook refuses a MachineSet without a bootstrap data secret.
      userDataSecretName: fc.string({ minLength: 1, maxLength: 24 }),
      current: fc.option(mapiProviderSpec, { nil: undefined }),
    });

    it('gives the template spec back, whatever the current providerSpec says', () => {
      fc.assert(
        fc.property(templateSpec, context, (template, { userDataSecretName, current }) => {
          const back = toMapi({ templateSpec: template, userDataSecretName }, current);
          const capi = toCapi(back.value);
          expect(capi.templateSpec).to.deep.equal(template);
          expect(capi.userDataSecretName).to.equal(userDataSecretName);
          expect(capi.failureDomain).to.equal(undefined);
        }),
        RUNS,
      );
    });

    it('gives other forms back as CAPV reads them, and as the forward converter writes them', () => {
      fc.assert(
        fc.property(looseTemplateSpec, (loose) => {
          const capi = toCapi(toMapi({ templateSpec: loose }).value);
          const devices = (loose.network as { devices: Json[] }).devices;
          const { os: _os, thumbprint: _t, customVMXKeys: _c, ...rest } = loose;
          expect(capi.templateSpec).to.deep.equal({
            ...rest,
            cloneMode: loose.cloneMode ?? 'linkedClone',
            server: loose.server ?? VCENTER,
            datacenter: loose.datacenter ?? '*',
            numCPUs: Math.max(Number(loose.numCPUs ?? 0), 2),
            memoryMiB: loose.memoryMiB || 2048,
            powerOffMode: 'hard',
            network: {
              devices: devices.map((d) =>
                d.dhcp6 ? compact({ ...d, dhcp6: undefined, dhcp4: true }) : d,
              ),
            },
          });
        }),
        RUNS,
      );
    });
  });
});
