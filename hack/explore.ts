// Explores every order of the actors around one MachineSet (test/unit/exploration), deeper than
// npm test does: more Machines, more states. Prints each scenario's states and depth, and the
// steps of any broken promise; exits 1 if one is found.
//   npm run explore [-- --replicas N] [--states MAX] [--scenario TEXT]
//     --replicas  Machines of the MachineSet (default 2; npm test explores 1)
//     --states    the most states a scenario may visit (default 2000000)
//     --scenario  only the scenarios whose name contains TEXT
import { parseArgs } from 'node:util';
import { explore, formatCounterexample } from '../test/unit/exploration/explore.js';
import { scenarios } from '../test/unit/exploration/scenarios.js';

const { values } = parseArgs({
  options: {
    replicas: { type: 'string', default: '2' },
    states: { type: 'string', default: '2000000' },
    scenario: { type: 'string', default: '' },
  },
});
const replicas = Number(values.replicas);
const maxStates = Number(values.states);
let broken = 0;
for (const scenario of scenarios(replicas)) {
  if (!scenario.name.includes(values.scenario)) continue;
  const started = Date.now();
  const result = explore(scenario, maxStates);
  const reach = result.truncated
    ? `every order of up to ${result.completeDepth} steps (state limit)`
    : `every order, up to ${result.depth} steps`;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${scenario.name}: ${result.states} states; ${reach}; ${seconds} s`);
  if (result.counterexample) {
    broken++;
    console.log(formatCounterexample(scenario.name, result.counterexample));
  }
}
process.exit(broken ? 1 : 0);
