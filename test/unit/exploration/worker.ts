// Explores some of the scenarios in a worker thread, so that npm test uses every core: the
// scenarios named in workerData, each answered with its result.
import { parentPort, workerData } from 'node:worker_threads';
import { explore } from './explore.js';
import { scenarios } from './scenarios.js';

export interface WorkerTask {
  replicas: number;
  names: string[];
  maxStates: number;
}

const task = workerData as WorkerTask;
for (const scenario of scenarios(task.replicas)) {
  if (!task.names.includes(scenario.name)) continue;
  parentPort!.postMessage({ name: scenario.name, result: explore(scenario, task.maxStates) });
}
