// Every order in which the actors around one MachineSet can take their steps, from the
// scenarios of scenarios.ts, checked against the promises of invariants.ts (explore.ts). A
// deeper run: `npm run explore -- --replicas 2` (docs/development.md).
import { expect } from 'chai';
import { brokenByStep } from './invariants.js';
import { explore, formatCounterexample, type Exploration, type Scenario } from './explore.js';
import { exploreInParallel } from './parallel.js';
import { Cluster, MAPI_GROUP } from './cluster.js';
import { PAUSED_ANNOTATION } from '../../../src/model/markers.js';
import { scenarios, settledCluster } from './scenarios.js';
import { people } from './people.js';

/** States each scenario may visit in npm test; a truncated one is complete to a depth. */
const STATES_IN_NPM_TEST = 20_000;

describe('every order of the actors around one MachineSet, explored', function () {
  this.timeout(120_000);
  const all = scenarios(1);
  let results: Map<string, Exploration>;

  before(async () => {
    results = await exploreInParallel(
      1,
      all.map((s) => s.name),
      STATES_IN_NPM_TEST,
    );
  });

  for (const scenario of all) {
    it(scenario.name, function () {
      const result = results.get(scenario.name)!;
      const reach = result.truncated
        ? `every order of up to ${result.completeDepth} steps`
        : `every order, up to ${result.depth} steps`;
      this.test!.title += ` (${result.states} states; ${reach})`;
      if (result.counterexample) {
        expect.fail(formatCounterexample(scenario.name, result.counterexample));
      }
    });
  }

  it('finds a broken promise, and prints the steps that lead to it', () => {
    // Someone unpauses the CAPI Machine of a MachineAPI Machine: both APIs would act on it.
    const start = settledCluster(1, 'MachineAPI');
    const rogue: Scenario = {
      name: 'a rogue unpause',
      start,
      script: [
        {
          says: 'removes the paused annotation from the CAPI Machine',
          run: (s) => {
            const machine = Object.values(s.objects).find(
              (o) => o.kind === 'Machine' && o.apiVersion.startsWith('cluster.x-k8s.io/'),
            )!;
            return (c: Cluster) => c.annotate(machine, { [PAUSED_ANNOTATION]: null });
          },
        },
        people.migrate('ClusterAPI'),
      ],
    };
    const result = explore(rogue);
    expect(result.counterexample?.broken).to.deep.equal([
      'both APIs act on Machine worker-a-0: status MachineAPI, and CAPI Machine worker-a-0 is not paused',
    ]);
    expect(formatCounterexample(rogue.name, result.counterexample!)).to.equal(
      [
        'a rogue unpause: a promise is broken after 1 steps:',
        '  1. a person removes the paused annotation from the CAPI Machine',
        'broken:',
        '  - both APIs act on Machine worker-a-0: status MachineAPI, and CAPI Machine worker-a-0 is not paused',
      ].join('\n'),
    );
    // The check itself, on the step alone.
    const before = start;
    const cluster = new Cluster(before);
    cluster.patchSpec(cluster.get(`${MAPI_GROUP}/MachineSet/worker-a`)!, { replicas: 1 });
    expect(
      brokenByStep(before, { actor: 'person', label: '', run: () => undefined }, cluster),
    ).to.deep.equal([]);
  });
});
