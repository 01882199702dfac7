// How the API server's answers are classified: which 422 is a race (a JSON patch that no longer
// applies) and which is a refusal, which 403 is a missing grant and which an admission denial,
// and which denial only says that a policy could not be evaluated.
// The Status bodies are the API server's own shapes (k8s.io/apiserver 1.35: the JSON-patch
// handler's generic 422, the ValidatingAdmissionPolicy dispatcher's denial, a webhook's).
import { expect } from 'chai';
import {
  describeError,
  isAccessDenied,
  isAdmissionDenial,
  isPermanent,
  isUnappliedJsonPatch,
  isUnevaluatedPolicy,
} from '../../../src/kube/errors.js';
import { ApiError } from '../../../src/kube/http-client.js';

const status = (code: number, message: string, causes?: object[]) =>
  new ApiError(
    code,
    JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      code,
      message,
      details: causes ? { causes } : {},
    }),
    'PATCH',
    '/apis/machine.openshift.io/v1beta1/namespaces/a/machinesets/b',
  );

const failedTest = status(422, 'the server rejected our request due to an error in our request');
const policyMessage =
  "ValidatingAdmissionPolicy 'guard' with binding 'guard' denied request: Changing .spec is not allowed.";
const policyDenial = status(422, policyMessage, [{ message: policyMessage }]);
const policyForbidden = status(403, policyMessage, [{ message: policyMessage }]);
const webhookDenial = status(
  403,
  'admission webhook "validation.machineset.cluster.x-k8s.io" denied the request: nope',
);
const fieldErrors = status(422, 'MachineSet.machine.openshift.io "b" is invalid: spec: Invalid', [
  { reason: 'FieldValueInvalid', field: 'spec' },
]);
// The dispatcher's denials when it cannot evaluate a policy (failurePolicy Fail), as 422 Invalid.
const unevaluated = [
  "ValidatingAdmissionPolicy 'guard' with binding 'guard' denied request: failed to configure binding: paramKind kind `cluster.x-k8s.io/v1beta2, Kind=Machine` not yet synced to use for admission",
  "ValidatingAdmissionPolicy 'guard' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Absent'",
].map((message) => status(422, message, [{ message }]));
const rbac = status(
  403,
  'machinesets.machine.openshift.io "b" is forbidden: User "x" cannot patch resource "machinesets"',
);

describe('API error classification', () => {
  it('a 422 without causes is a JSON patch that no longer applies (a race)', () => {
    expect(isUnappliedJsonPatch(failedTest)).to.equal(true);
  });

  it('a 422 with causes, or a denial at admission, is never a race', () => {
    for (const err of [policyDenial, fieldErrors, policyForbidden, webhookDenial]) {
      expect(isUnappliedJsonPatch(err), JSON.stringify(err.body)).to.equal(false);
    }
  });

  it('a policy denial without causes is still a denial (the message says so)', () => {
    const bare = status(422, policyMessage);
    expect(isAdmissionDenial(bare)).to.equal(true);
    expect(isUnappliedJsonPatch(bare)).to.equal(false);
  });

  it('denials by a policy or a webhook are refusals, whatever their code, and never a missing grant', () => {
    for (const err of [policyDenial, policyForbidden, webhookDenial]) {
      expect(isAdmissionDenial(err)).to.equal(true);
      expect(isPermanent(err)).to.equal(true);
      expect(isAccessDenied(err)).to.equal(false);
    }
  });

  it('a 403 from RBAC is a missing grant, not a refusal of the content', () => {
    expect(isAccessDenied(rbac)).to.equal(true);
    expect(isPermanent(rbac)).to.equal(false);
    expect(isAdmissionDenial(rbac)).to.equal(false);
  });

  it('a policy the API server could not evaluate is retried, not a refusal of the object', () => {
    for (const err of unevaluated) {
      expect(isUnevaluatedPolicy(err)).to.equal(true);
      expect(isPermanent(err), describeError(err)).to.equal(false);
      expect(isAccessDenied(err)).to.equal(false);
      expect(isUnappliedJsonPatch(err)).to.equal(false);
    }
    for (const err of [policyDenial, policyForbidden, webhookDenial, fieldErrors, rbac]) {
      expect(isUnevaluatedPolicy(err), describeError(err)).to.equal(false);
    }
  });
});
