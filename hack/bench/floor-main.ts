// The floor script as a process of its own, so that its CPU and memory are its own:
//   node --import tsx hack/bench/floor-main.ts --kubeconfig K --mapi-namespace NS --capi-namespace NS [--concurrency 8]
// Makes one pass (see floor.ts) and prints, as its last line, JSON with the MachineSets it wrote
// for and the CPU seconds of the pass. Its memory is not reported: run under tsx, most of it is
// the TypeScript loader's, not the floor's.
import { parseArgs } from 'node:util';
import { loadKubeConfig } from '../../src/kube/kubeconfig.js';
import { runFloorPass } from './floor.js';

const { values } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    'mapi-namespace': { type: 'string' },
    'capi-namespace': { type: 'string' },
    concurrency: { type: 'string', default: '8' },
  },
});
const kubeconfig = values.kubeconfig;
const mapiNamespace = values['mapi-namespace'];
const capiNamespace = values['capi-namespace'];
if (!kubeconfig || !mapiNamespace || !capiNamespace) {
  process.stderr.write('floor: --kubeconfig, --mapi-namespace and --capi-namespace are required\n');
  process.exit(2);
}
// From here on: the pass, not node's start nor compiling the imports.
const cpuBefore = process.cpuUsage();
const kubeConfig = loadKubeConfig({ path: kubeconfig, env: {} });
const machineSets = await runFloorPass({
  kubeConfig,
  mapiNamespace,
  capiNamespace,
  concurrency: Number(values.concurrency),
});
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  JSON.stringify({ machineSets, cpuSeconds: (cpu.user + cpu.system) / 1e6 }) + '\n',
);
