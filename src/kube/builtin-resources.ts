// Kubernetes' and OpenShift's own resources that the command-line tools, the tests, the demo and
// the bench read and write through ObjectClient (objects.ts). The controller's are in
// resources.ts.
import type { Resource } from './resources.js';

const core = (plural: string, kind: string, namespaced = true): Resource => ({
  group: '',
  version: 'v1',
  plural,
  kind,
  namespaced,
});

export const NAMESPACE = core('namespaces', 'Namespace', false);
export const SECRET = core('secrets', 'Secret');
export const CONFIG_MAP = core('configmaps', 'ConfigMap');
export const SERVICE_ACCOUNT = core('serviceaccounts', 'ServiceAccount');
export const POD = core('pods', 'Pod');
export const EVENT = core('events', 'Event');

export const LEASE: Resource = {
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
  kind: 'Lease',
  namespaced: true,
};

const rbac = (plural: string, kind: string, namespaced: boolean): Resource => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural,
  kind,
  namespaced,
});

export const ROLE = rbac('roles', 'Role', true);
export const ROLE_BINDING = rbac('rolebindings', 'RoleBinding', true);
export const CLUSTER_ROLE = rbac('clusterroles', 'ClusterRole', false);
export const CLUSTER_ROLE_BINDING = rbac('clusterrolebindings', 'ClusterRoleBinding', false);

export const SUBJECT_ACCESS_REVIEW: Resource = {
  group: 'authorization.k8s.io',
  version: 'v1',
  plural: 'subjectaccessreviews',
  kind: 'SubjectAccessReview',
  namespaced: false,
};

export const SELF_SUBJECT_REVIEW: Resource = {
  group: 'authentication.k8s.io',
  version: 'v1',
  plural: 'selfsubjectreviews',
  kind: 'SelfSubjectReview',
  namespaced: false,
};

export const VALIDATING_ADMISSION_POLICY: Resource = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  plural: 'validatingadmissionpolicies',
  kind: 'ValidatingAdmissionPolicy',
  namespaced: false,
};

export const VALIDATING_ADMISSION_POLICY_BINDING: Resource = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  plural: 'validatingadmissionpolicybindings',
  kind: 'ValidatingAdmissionPolicyBinding',
  namespaced: false,
};

export const CUSTOM_RESOURCE_DEFINITION: Resource = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
};

export const PRIORITY_CLASS: Resource = {
  group: 'scheduling.k8s.io',
  version: 'v1',
  plural: 'priorityclasses',
  kind: 'PriorityClass',
  namespaced: false,
};

export const CLUSTER_OPERATOR: Resource = {
  group: 'config.openshift.io',
  version: 'v1',
  plural: 'clusteroperators',
  kind: 'ClusterOperator',
  namespaced: false,
};
