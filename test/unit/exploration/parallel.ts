// Runs the exploration of scenarios on as many worker threads as there are cores.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Exploration } from './explore.js';
import type { WorkerTask } from './worker.js';

const WORKER = new URL('./worker.ts', import.meta.url).href;

/** Each scenario's exploration, by name; `names` are dealt out to the workers in turn. */
export async function exploreInParallel(
  replicas: number,
  names: string[],
  maxStates: number,
): Promise<Map<string, Exploration>> {
  const workers = Math.max(1, Math.min(availableParallelism(), names.length));
  const results = new Map<string, Exploration>();
  await Promise.all(
    Array.from({ length: workers }, (_, w) => {
      const task: WorkerTask = {
        replicas,
        names: names.filter((_, i) => i % workers === w),
        maxStates,
      };
      return new Promise<void>((resolve, reject) => {
        // The worker loads TypeScript as the tests do (tsx), from a small script of its own.
        const worker = new Worker(
          `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(WORKER)}, ${JSON.stringify(import.meta.url)}))`,
          { eval: true, workerData: task },
        );
        worker.on('message', (m: { name: string; result: Exploration }) =>
          results.set(m.name, m.result),
        );
        worker.on('error', reject);
        worker.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`exploration worker exited with ${code}`)),
        );
      });
    }),
  );
  return results;
}
