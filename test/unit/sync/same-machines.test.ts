// Whether two providerSpecs describe the same machines, shared by the reverse sync of both kinds.
import { expect } from 'chai';
import { sameMachines } from '../../../src/sync/same-machines.js';
import { platformMachineSets, providerSpecOf } from '../../support/conversion.js';

describe('sameMachines, with the AWS converter', () => {
  const aws = platformMachineSets()[0]!;
  const where = { path: 'spec.template.spec.providerSpec.value', controlPlane: false };
  const written = providerSpecOf(aws.machineSet()) as Record<string, unknown>;
  const blockDevice = (written.blockDevices as { ebs: object }[])[0]!;
  // The same providerSpec as machine-api-operator's defaulting webhook stores it: unmarshalled
  // into its Go type and marshalled again, which writes every empty field without omitempty.
  const defaulted = {
    ...written,
    blockDevices: [{ ebs: { ...blockDevice.ebs, kmsKey: {} } }],
    capacityReservationId: '',
    deviceIndex: 0,
    metadata: {},
    metadataServiceOptions: {},
  };

  it('counts the defaulting webhook’s form of a providerSpec as the same machines', () => {
    expect(sameMachines(aws, written, defaulted, where)).to.equal(true);
    expect(sameMachines(aws, defaulted, written, where)).to.equal(true);
  });

  it('still tells a real difference from it', () => {
    expect(
      sameMachines(aws, written, { ...defaulted, instanceType: 'm6i.2xlarge' }, where),
    ).to.equal(false);
  });
});
