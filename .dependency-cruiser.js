// The dependency rules of src/, checked by `npm run lint` (dependency-cruiser).
//
// Layers, from the bottom; a module imports only from its own layer and the layers below it:
//   floor       src/model/, src/api/         markers, naming, Kubernetes name rules, API groups, object shapes
//   conversion  src/conversion/              pure MAPI ⇄ CAPI conversion
//   core        src/sync/, src/migration/    pure planners
//   shell       src/kube/, src/runtime/, src/controller/, src/status/, src/observability/, src/clock.ts,
//               src/logging.ts
//   entry       src/main.ts, src/cli/, src/options.ts, src/version.ts
// Every module of src/ sits in one layer.
const LAYERS = [
  { name: 'floor', path: '^src/(model|api)/' },
  { name: 'conversion', path: '^src/conversion/' },
  { name: 'core', path: '^src/(sync|migration)/' },
  {
    name: 'shell',
    path: '^src/((kube|runtime|controller|status|observability)/|(clock|logging)\\.ts$)',
  },
  { name: 'entry', path: '^src/(cli/|(main|options|version)\\.ts$)' },
];
const ANY_LAYER = LAYERS.map((layer) => layer.path).join('|');

/** One rule per layer: nothing above it. */
const climbing = LAYERS.slice(0, -1).map((layer, index) => {
  const above = LAYERS.slice(index + 1);
  return {
    name: `layer-${layer.name}`,
    comment:
      `The ${layer.name} layer must not import from the layers above it ` +
      `(${above.map((upper) => upper.name).join(', ')}): move what both need down, ` +
      'to src/model/ when every layer shares it.',
    severity: 'error',
    from: { path: layer.path },
    to: { path: above.map((upper) => upper.path) },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules of src/ never import each other in a circle, not even for types.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...climbing,
    {
      name: 'layer-unplaced',
      comment:
        'Every module of src/ sits in a layer (see LAYERS in .dependency-cruiser.js): ' +
        'place a new folder or file there.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: ANY_LAYER },
    },
    {
      name: 'layer-unplaced-importer',
      comment:
        'Every module of src/ sits in a layer (see LAYERS in .dependency-cruiser.js): ' +
        'place a new folder or file there.',
      severity: 'error',
      from: { path: '^src/', pathNot: ANY_LAYER },
      to: { path: '^src/' },
    },
    {
      name: 'conversion-siblings',
      comment:
        'A platform or kind folder of src/conversion/ shares code with the others only ' +
        'through src/conversion/common/ (and the files at the root of src/conversion/).',
      severity: 'error',
      from: { path: '^src/conversion/([^/]+)/' },
      to: {
        path: '^src/conversion/[^/]+/',
        pathNot: ['^src/conversion/$1/', '^src/conversion/common/'],
      },
    },
    {
      name: 'sync-kinds',
      comment:
        'MachineSet sync (src/sync/machine-set/) and Machine sync (src/sync/machine/) share ' +
        'code only through src/sync/.',
      severity: 'error',
      from: { path: '^src/sync/(machine|machine-set)/' },
      to: { path: '^src/sync/(machine|machine-set)/', pathNot: '^src/sync/$1/' },
    },
    {
      name: 'controller-kinds',
      comment:
        'The MachineSet controller (src/controller/machine-set.ts) and the Machine controller ' +
        '(src/controller/machine.ts) share code only through src/controller/mirror.ts.',
      severity: 'error',
      from: { path: '^src/controller/(machine|machine-set)\\.ts$' },
      to: {
        path: '^src/controller/(machine|machine-set)\\.ts$',
        pathNot: '^src/controller/$1\\.ts$',
      },
    },
    {
      name: 'runtime-without-kinds',
      comment:
        'The runtime (src/runtime/: manager, queue, workers, the step loop) serves any kind: it ' +
        "imports nothing of the controllers of src/controller/ nor of one kind's planners.",
      severity: 'error',
      from: { path: '^src/runtime/' },
      to: { path: '^src/(controller|migration|sync/machine-set|sync/machine)/' },
    },
    {
      name: 'controller-without-client-node',
      comment:
        'The controller never loads client-node (some 55 MiB of resident set): only its types. ' +
        'Its kubeconfig is read apart (src/kube/kubeconfig-apart.ts); the CLIs may load it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli/|kube/kubeconfig(-child)?\\.ts$)' },
      to: {
        path: ['@kubernetes/client-node', '^src/kube/kubeconfig\\.ts$'],
        dependencyTypesNot: ['type-only', 'type-import', 'dynamic-import'],
      },
    },
    {
      name: 'no-tests-or-tools',
      comment: 'The program never imports test/ or hack/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|hack)/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file or a package.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
