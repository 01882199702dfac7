// What the plan of one MachineSet reads of the templates: the same through the indexes and by
// filtering the whole list, and never all of them.
import { expect } from 'chai';
import type { CapiMachineSet, MachineTemplate } from '../../../src/api/types.js';
import {
  TEMPLATES_BY_NAME_PREFIX,
  TEMPLATES_BY_SOURCE,
  templateNamePrefixOf,
  templateSourceOf,
  templatesFor,
} from '../../../src/controller/machine-set.js';
import type { ObjectCache } from '../../../src/runtime/step-reconciler.js';
import { SOURCE_ANNOTATION } from '../../../src/model/markers.js';
import { prefixOfTemplateName, templateName } from '../../../src/model/naming.js';

const NS = 'capi';

function template(name: string, source?: string): MachineTemplate {
  return {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'AWSMachineTemplate',
    metadata: {
      name,
      namespace: NS,
      ...(source ? { annotations: { [SOURCE_ANNOTATION]: source } } : {}),
    },
    spec: { template: { spec: {} } },
  };
}

function cache(templates: MachineTemplate[], indexed: boolean): ObjectCache<MachineTemplate> {
  const byName = new Map(templates.map((t) => [`${NS}/${t.metadata.name}`, t]));
  const indexes: Record<string, (t: MachineTemplate) => string[]> = {
    [TEMPLATES_BY_SOURCE]: templateSourceOf,
    [TEMPLATES_BY_NAME_PREFIX]: templateNamePrefixOf,
  };
  return {
    get: (key) => byName.get(key),
    // With indexes, a plan that still listed every template would be quadratic again.
    list: () => {
      if (indexed) throw new Error('listed every template although the cache has indexes');
      return [...byName.values()];
    },
    ...(indexed
      ? {
          byIndex: (index: string, value: string) =>
            templates.filter((t) => indexes[index]?.(t).includes(value)),
        }
      : {}),
    hasSynced: () => true,
    upsert: () => undefined,
    remove: () => undefined,
  };
}

const mirrorPointingAt = (name: string) =>
  ({ spec: { template: { spec: { infrastructureRef: { name } } } } }) as CapiMachineSet;

describe('templatesFor', () => {
  const ours = template(templateName('worker-a', { a: 1 }), 'worker-a');
  const oldOurs = template(templateName('worker-a', { a: 0 }), 'worker-a');
  const foreignUnderOurName = template(templateName('worker-a', { a: 2 }));
  const chosenOnCapi = template('hand-made');
  const otherSets = [
    template(templateName('worker-b', { a: 1 }), 'worker-b'),
    template(templateName('worker-a-x', { a: 1 }), 'worker-a-x'),
    template('unrelated'),
  ];
  const all = [ours, oldOurs, foreignUnderOurName, chosenOnCapi, ...otherSets];

  for (const indexed of [true, false]) {
    it(`${indexed ? 'through the indexes' : 'by filtering the list'}: ours, any under our names, the one the mirror points at, nothing else`, () => {
      const names = (mirror?: CapiMachineSet) =>
        templatesFor(cache(all, indexed), NS, 'worker-a', mirror)
          .map((t) => t.metadata.name)
          .sort();
      const expected = [ours, oldOurs, foreignUnderOurName].map((t) => t.metadata.name).sort();
      expect(names()).to.deep.equal(expected);
      expect(names(mirrorPointingAt('hand-made'))).to.deep.equal([...expected, 'hand-made'].sort());
      expect(names(mirrorPointingAt(ours.metadata.name))).to.deep.equal(expected);
    });
  }

  it('finds the prefix of long names too, as templateName makes them', () => {
    const long = 'w'.repeat(250);
    const name = templateName(long, { a: 1 });
    expect(name.length).to.be.at.most(253);
    expect(prefixOfTemplateName(name)).to.equal(name.slice(0, -11));
    const found = templatesFor(cache([template(name)], true), NS, long, undefined);
    expect(found.map((t) => t.metadata.name)).to.deep.equal([name]);
    expect(prefixOfTemplateName('no-hash-here')).to.equal(undefined);
  });
});
