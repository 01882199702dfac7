// The label and annotation syntax the API server enforces (apimachinery's validation).
import { expect } from 'chai';
import {
  annotationKeyProblem,
  annotationsBytes,
  labelKeyProblem,
  labelValueProblem,
  MAX_ANNOTATIONS_BYTES,
  objectNameProblem,
} from '../../../src/model/kube-names.js';

describe('Kubernetes names', () => {
  it('label keys: an optional DNS subdomain prefix and a name of at most 63 characters', () => {
    for (const key of [
      'a',
      'app',
      'A_b.c-D',
      'node-role.kubernetes.io/worker',
      'example.com/My.Name_1',
      `${'a'.repeat(253)}/${'b'.repeat(63)}`,
    ]) {
      expect(labelKeyProblem(key), key).to.equal(undefined);
    }
    const invalid: [string, RegExp][] = [
      ['', /name part is empty/],
      ['-a', /must consist of/],
      ['a-', /must consist of/],
      ['a b', /must consist of/],
      ['a'.repeat(64), /64 characters long, more than 63/],
      ['/a', /prefix is empty/],
      ['a/', /name part is empty/],
      ['a/b/c', /more than one '\/'/],
      ['Example.com/a', /prefix is not a DNS subdomain/],
      ['example_com/a', /prefix is not a DNS subdomain/],
      [`${'a'.repeat(254)}/b`, /prefix is 254 characters long, more than the 253/],
    ];
    for (const [key, problem] of invalid) expect(labelKeyProblem(key), key).to.match(problem);
  });

  it('annotation keys: label keys in any case', () => {
    expect(annotationKeyProblem('Example.COM/Note')).to.equal(undefined);
    expect(labelKeyProblem('Example.COM/Note')).to.match(/prefix/);
    expect(annotationKeyProblem('a b')).to.match(/must consist of/);
  });

  it('label values: empty, or at most 63 characters of the name syntax', () => {
    for (const value of ['', 'a', 'worker-a', 'A.b_c-1', 'x'.repeat(63)]) {
      expect(labelValueProblem(value), value).to.equal(undefined);
    }
    expect(labelValueProblem('x'.repeat(64))).to.match(/64 characters long, more than 63/);
    expect(labelValueProblem('-a')).to.match(/must be empty or consist of/);
    expect(labelValueProblem('a/b')).to.match(/must be empty or consist of/);
  });

  it('object names: DNS subdomains', () => {
    expect(objectNameProblem('worker-a.b')).to.equal(undefined);
    expect(objectNameProblem('Worker')).to.match(/lower-case/);
    expect(objectNameProblem('a'.repeat(254))).to.match(/254 characters long/);
  });

  it('annotation size: the UTF-8 bytes of keys and values', () => {
    expect(
      annotationsBytes([
        ['a', 'é'],
        ['b', '€'],
        ['c', '😀'],
      ]),
    ).to.equal(3 + 2 + 3 + 4);
    expect(MAX_ANNOTATIONS_BYTES).to.equal(262144);
  });
});
