// Prometheus metrics, named and bucketed like controller-runtime's so existing
// dashboards and alerts work, plus gauges of MachineSets by sync state.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MapiMachineSet } from '../api/types.js';
import type { WorkQueueMetrics } from '../runtime/workqueue.js';
import { findSynchronized } from '../sync/conditions.js';

/** The shared work queue's name, and the MachineSet controller's. */
export const CONTROLLER_NAME = 'machineset-sync';
/** The controllers, by the kind each reconciles: the `controller` label of the reconcile metrics. */
export const CONTROLLER_NAMES = { MachineSet: CONTROLLER_NAME, Machine: 'machine-sync' } as const;
export type ControllerName = (typeof CONTROLLER_NAMES)[keyof typeof CONTROLLER_NAMES];
const LEADER_ELECTION_NAME = 'mapi-capi-sync';

/** controller-runtime's reconcile_time_seconds buckets. */
const RECONCILE_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9,
  1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];
/**
 * How often the event loop delay histogram (nodejs_eventloop_lag_*) takes a sample. prom-client's
 * default, 10 ms, is a timer that wakes the process 100 times a second for as long as it lives:
 * about half a CPU second per minute when there is nothing to do. Once a second still catches the
 * stalls that matter to a controller (a long JSON parse, a sync loop over every object).
 */
const EVENT_LOOP_SAMPLE_MS = 1000;
/** client-go's workqueue buckets: 10 ns to 1000 s, ×10. */
const QUEUE_BUCKETS = Array.from({ length: 12 }, (_, i) => 1e-8 * 10 ** i);

export type ReconcileResult = 'success' | 'error' | 'requeue' | 'requeue_after';

export class Metrics {
  readonly registry = new Registry();
  private readonly reconcileTotal: Counter<'controller' | 'result'>;
  private readonly reconcileErrors: Counter<'controller'>;
  private readonly reconcileTime: Histogram<'controller'>;
  private readonly leaderStatus: Gauge<'name'>;

  constructor(listMachineSets: () => MapiMachineSet[]) {
    const registers = [this.registry];
    collectDefaultMetrics({
      register: this.registry,
      eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
    });
    this.reconcileTotal = new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'],
      registers,
    });
    this.reconcileErrors = new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    });
    this.reconcileTime = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'],
      buckets: RECONCILE_BUCKETS,
      registers,
    });
    this.leaderStatus = new Gauge({
      name: 'leader_election_master_status',
      help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master',
      labelNames: ['name'],
      registers,
    });
    this.leaderStatus.set({ name: LEADER_ELECTION_NAME }, 0);
    // Zero-initialise so rate() and alerts see the series from the start.
    for (const controller of Object.values(CONTROLLER_NAMES)) {
      for (const result of ['success', 'error', 'requeue', 'requeue_after'] as const) {
        this.reconcileTotal.inc({ controller, result }, 0);
      }
      this.reconcileErrors.inc({ controller }, 0);
    }
    new Gauge({
      name: 'mapi_capi_sync_machinesets',
      help: 'MAPI MachineSets by Synchronized condition status and status.authoritativeAPI',
      labelNames: ['synchronized', 'authority'],
      registers,
      collect() {
        this.reset();
        for (const synchronized of ['True', 'False', 'Unknown']) {
          for (const authority of ['MachineAPI', 'ClusterAPI', 'Migrating', '']) {
            this.set({ synchronized, authority }, 0);
          }
        }
        for (const machineSet of listMachineSets()) {
          this.inc({
            synchronized: findSynchronized(machineSet.status?.conditions)?.status ?? 'Unknown',
            authority: machineSet.status?.authoritativeAPI ?? '',
          });
        }
      },
    });
  }

  reconciled(controller: ControllerName, result: ReconcileResult, seconds: number): void {
    this.reconcileTotal.inc({ controller, result });
    if (result === 'error') this.reconcileErrors.inc({ controller });
    this.reconcileTime.observe({ controller }, seconds);
  }

  leader(isLeader: boolean): void {
    this.leaderStatus.set({ name: LEADER_ELECTION_NAME }, isLeader ? 1 : 0);
  }

  workQueue(name: string): WorkQueueMetrics {
    const registers = [this.registry];
    const labels = { name };
    const depth = new Gauge({
      name: 'workqueue_depth',
      help: 'Current depth of workqueue',
      labelNames: ['name'],
      registers,
    });
    const adds = new Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames: ['name'],
      registers,
    });
    const wait = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested',
      labelNames: ['name'],
      buckets: QUEUE_BUCKETS,
      registers,
    });
    const retries = new Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames: ['name'],
      registers,
    });
    depth.set(labels, 0);
    adds.inc(labels, 0);
    retries.inc(labels, 0);
    return {
      added: () => adds.inc(labels),
      depth: (keys) => depth.set(labels, keys),
      waited: (seconds) => wait.observe(labels, seconds),
      retried: () => retries.inc(labels),
    };
  }
}
