// A small results file, as npm run bench writes it, for the report and chart tests.
import type { BenchResults } from '../../../hack/bench/report.js';

export const RESULTS: BenchResults = {
  machineSets: 50,
  workers: 2,
  floorConcurrency: 8,
  startedAt: '2026-01-02T03:04:05.000Z',
  cpus: 2,
  runs: [
    {
      subject: 'ours',
      label: 'node dist/main.js --workers 2',
      phases: {
        initial: {
          seconds: 12,
          writes: {
            'POST machinesets.cluster.x-k8s.io': 50,
            'PATCH machinesets.machine.openshift.io': 300,
          },
          writesPerMachineSet: 7,
          cpuSeconds: 3,
          peakRssMiB: 120,
          apiServerCpuSeconds: 7,
          etcdCpuSeconds: 1.5,
        },
        idle: {
          seconds: 120,
          writes: {},
          writesPerMachineSet: 0,
          cpuSeconds: 0.5,
          peakRssMiB: 121,
          cpuSecondsByMinute: [0.45, 0.05],
          endRssMiB: 96,
        },
      },
    },
    {
      subject: 'floor',
      label: 'floor script, 8 at a time',
      phases: {
        initial: { seconds: 8, writes: {}, writesPerMachineSet: 5, cpuSeconds: 2, peakRssMiB: 80 },
        idle: { seconds: 120, writes: {}, writesPerMachineSet: 0, cpuSeconds: 0 },
      },
    },
  ],
};
