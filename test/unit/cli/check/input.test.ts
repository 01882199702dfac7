import { dumpYaml } from '@kubernetes/client-node';
import { expect } from 'chai';
import { CheckInputError } from '../../../../src/cli/check/flags.js';
import { parseMachineSets } from '../../../../src/cli/check/input.js';
import { platformCorpus } from './corpus.js';

const [aws, azure] = platformCorpus();
const names = (text: string) => parseMachineSets(text, 'in.yaml').map((m) => m.metadata.name);
const refusal = (text: string): string => {
  try {
    parseMachineSets(text, 'in.yaml');
  } catch (err) {
    expect(err).to.be.instanceOf(CheckInputError);
    return (err as Error).message;
  }
  return expect.fail('expected the input to be refused');
};

describe('check: reading MachineSets from YAML or JSON', () => {
  const a = aws!.good('a');
  const b = azure!.good('b');

  it('reads one object, several documents (with a leading and a trailing ---), and comments', () => {
    expect(names(dumpYaml(a))).to.deep.equal(['a']);
    expect(
      names(`# MachineSets\n---\n${dumpYaml(a)}---\n# none here\n---\n${dumpYaml(b)}---\n`),
    ).to.deep.equal(['a', 'b']);
  });

  it('reads a List and a MachineSetList, as oc get -o yaml and -o json print them', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: [a, b],
      metadata: { resourceVersion: '' },
    };
    expect(names(dumpYaml(list))).to.deep.equal(['a', 'b']);
    expect(names(JSON.stringify(list))).to.deep.equal(['a', 'b']);
    const machineSetList = {
      ...list,
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'MachineSetList',
    };
    expect(names(JSON.stringify(machineSetList, null, 2))).to.deep.equal(['a', 'b']);
    expect(names(dumpYaml({ ...list, items: [] }))).to.deep.equal([]);
  });

  it('gives the MachineSet back as plain JSON, whatever the loader makes of metadata', () => {
    const stamped = {
      ...a,
      metadata: { ...a.metadata, creationTimestamp: '2025-01-01T00:00:00Z' },
    };
    const [read] = parseMachineSets(dumpYaml(stamped), 'in.yaml');
    expect(read?.metadata.creationTimestamp).to.be.a('string');
    expect(read?.spec).to.deep.equal(a.spec);
  });

  it('reads nothing from an empty input or one with only comments', () => {
    expect(names('')).to.deep.equal([]);
    expect(names('# nothing\n---\n')).to.deep.equal([]);
  });

  it('refuses text that is not YAML, with the line', () => {
    expect(refusal(`${dumpYaml(a)}---\nkind: [MachineSet\n`)).to.match(
      /^in\.yaml:\d+: not valid YAML or JSON: /,
    );
    // The line of `  bad: indentation`: after the first document, `---` and `kind`.
    const line = dumpYaml(a).split('\n').length + 2;
    expect(refusal(`${dumpYaml(a)}---\nkind: MachineSet\n  bad: indentation\n`)).to.match(
      new RegExp(`^in\\.yaml:${line}: not valid YAML or JSON`),
    );
  });

  it('refuses what is not a Machine API MachineSet, saying which document and what it is', () => {
    expect(refusal('just text')).to.equal(
      'in.yaml: document 1 is the text "just text", not a Kubernetes object',
    );
    expect(refusal('- 1\n- 2\n')).to.equal(
      'in.yaml: document 1 is a list, not a Kubernetes object',
    );
    expect(
      refusal(`${dumpYaml(a)}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n`),
    ).to.equal(
      'in.yaml: document 2 is a v1 ConfigMap, not a Machine API MachineSet (machine.openshift.io/v1beta1)',
    );
    expect(refusal(JSON.stringify({ ...a, apiVersion: 'cluster.x-k8s.io/v1beta2' }))).to.match(
      /document 1 is a cluster\.x-k8s\.io\/v1beta2 MachineSet, not a Machine API MachineSet .*use oc get machinesets\.machine\.openshift\.io$/,
    );
    expect(refusal('{"metadata": {"name": "x"}}')).to.match(
      /document 1 is not a Kubernetes object \(it needs apiVersion and kind\)/,
    );
  });

  it('names the list item that is wrong, and a list whose items are not a list', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: [a, { apiVersion: 'v1', kind: 'Secret' }],
    };
    expect(refusal(JSON.stringify(list))).to.equal(
      'in.yaml: document 1, items[1] is a v1 Secret, not a Machine API MachineSet (machine.openshift.io/v1beta1)',
    );
    expect(refusal(JSON.stringify({ ...list, items: 'none' }))).to.equal(
      'in.yaml: document 1: items is the text "none", not a list',
    );
  });

  it('refuses a MachineSet without a name', () => {
    const unnamed = { ...a, metadata: { namespace: 'x' } };
    expect(refusal(JSON.stringify(unnamed))).to.equal(
      'in.yaml: document 1: metadata.name is missing',
    );
  });
});
