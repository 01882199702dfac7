// hack/local-cluster.sh start [--no-neighbours]|stop|status — a local control plane that outlives
// the command, with the neighbouring controllers and webhooks unless --no-neighbours.
// `start` prints the kubeconfig path on its last line; running it twice is harmless.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  isAlive,
  killAll,
  startControlPlane,
  type ComponentName,
  type ControlPlaneState,
} from '../test/environment/control-plane.js';

const cacheRoot =
  process.env.MAPI_CAPI_SYNC_CACHE ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mapi-capi-sync');
const clusterDir = process.env.LOCAL_CLUSTER_DIR ?? join(cacheRoot, 'local-cluster');
const stateFile = join(clusterDir, 'state.json');

const say = (message: string): void => {
  process.stderr.write(`[local-cluster] ${message}\n`);
};

async function readState(): Promise<ControlPlaneState | undefined> {
  if (!existsSync(stateFile)) return undefined;
  return JSON.parse(await readFile(stateFile, 'utf8')) as ControlPlaneState;
}

function components(state: ControlPlaneState): [ComponentName, number][] {
  return Object.entries(state.pids) as [ComponentName, number][];
}

function running(state: ControlPlaneState): ComponentName[] {
  return components(state)
    .filter(([, pid]) => isAlive(pid))
    .map(([name]) => name);
}

function allRunning(state: ControlPlaneState): boolean {
  return running(state).length === components(state).length;
}

async function stop(): Promise<void> {
  const state = await readState();
  if (state) {
    say(`stopping ${running(state).join(', ') || 'nothing (already stopped)'}`);
    await killAll(components(state).map(([, pid]) => pid));
  }
  await rm(clusterDir, { recursive: true, force: true });
  say('stopped');
}

async function start(neighbours: boolean): Promise<void> {
  const state = await readState();
  if (state && allRunning(state)) {
    say(`already running at ${state.server}`);
    console.log(state.kubeconfigPath);
    return;
  }
  if (state) {
    say('a previous cluster is only partly running; replacing it');
    await stop();
  }
  await mkdir(clusterDir, { recursive: true });
  const plane = await startControlPlane({ dir: clusterDir, detached: true, log: say, neighbours });
  const persisted: ControlPlaneState = {
    dir: plane.dir,
    binDir: plane.binDir,
    kubeconfigPath: plane.kubeconfigPath,
    identityKubeconfigPaths: plane.identityKubeconfigPaths,
    server: plane.server,
    adminToken: plane.adminToken,
    pids: plane.pids,
    neighbours: plane.neighbours,
  };
  await writeFile(stateFile, JSON.stringify(persisted, null, 2) + '\n');
  say(`ready at ${plane.server}; stop it with: hack/local-cluster.sh stop`);
  say(`use it with: export KUBECONFIG=${plane.kubeconfigPath}`);
  console.log(plane.kubeconfigPath);
}

async function status(): Promise<number> {
  const state = await readState();
  if (!state) {
    console.log('stopped');
    return 1;
  }
  for (const [name, pid] of components(state)) {
    const neighbour = (state.neighbours ?? []).find((n) => n.name === name);
    const what = neighbour
      ? ` ${neighbour.module} ${neighbour.version}: ${neighbour.runs.join(', ')}`
      : '';
    console.log(`${name}: ${isAlive(pid) ? 'running' : 'not running'} (pid ${pid})${what}`);
  }
  console.log(`server: ${state.server}`);
  console.log(`kubeconfig: ${state.kubeconfigPath}`);
  return allRunning(state) ? 0 : 1;
}

const command = process.argv[2];
try {
  switch (command) {
    case 'start':
      await start(!process.argv.slice(3).includes('--no-neighbours'));
      break;
    case 'stop':
      await stop();
      break;
    case 'status':
      process.exitCode = await status();
      break;
    default:
      process.stderr.write('usage: hack/local-cluster.sh start [--no-neighbours]|stop|status\n');
      process.exitCode = 2;
  }
} catch (err) {
  say(`error: ${(err as Error).message}`);
  process.exitCode = 1;
}
