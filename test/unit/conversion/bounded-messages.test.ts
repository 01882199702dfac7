// A providerSpec field may hold a megabyte; the messages about it must stay short, because they
// end up in a condition message and in events.
import { expect } from 'chai';
import type { Conversion, ProviderConversion } from '../../../src/conversion/types.js';
import {
  applyPatch,
  jsonPointer,
  objectPaths,
  PROVIDER_SPEC_PATH,
  platformMachineSets,
  providerSpecOf,
  scalarLeaves,
} from '../../support/conversion.js';

/** More than a megabyte, of characters no name or ID may contain. */
const HUGE = 'Huge value! '.repeat(90_000);
/** The most one error (path and message) or warning may take. */
const LIMIT = 1024;

/** Checks every message; returns how many errors there are. */
function expectBounded(result: Conversion<ProviderConversion>): number {
  const texts = result.ok ? result.warnings : result.errors.map((e) => `${e.path}: ${e.message}`);
  for (const text of texts) expect(text.length, text.slice(0, 300)).to.be.below(LIMIT);
  return result.ok ? 0 : result.errors.length;
}

describe('every converter bounds the user values it quotes', () => {
  for (const platform of platformMachineSets()) {
    const context = {
      infrastructure: platform.infrastructure,
      path: PROVIDER_SPEC_PATH,
      controlPlane: false,
    };

    it(`${platform.platform}: a huge string in any providerSpec field`, () => {
      const spec = providerSpecOf(platform.machineSet());
      let rejected = 0;
      for (const [keys, value] of scalarLeaves(spec)) {
        if (typeof value !== 'string') continue;
        const changed = applyPatch(spec, [{ op: 'replace', path: jsonPointer(keys), value: HUGE }]);
        if (expectBounded(platform.converter.toCapi(changed, context)) > 0) rejected++;
      }
      // Most fields are names or IDs of a bounded syntax: the test must see them rejected.
      expect(rejected).to.be.above(3);
    });

    it(`${platform.platform}: a huge key in any providerSpec object`, () => {
      const spec = providerSpecOf(platform.machineSet());
      let rejected = 0;
      for (const keys of objectPaths(spec)) {
        const changed = applyPatch(spec, [
          { op: 'add', path: jsonPointer([...keys, HUGE]), value: HUGE },
        ]);
        // Mostly an unknown field, reported on a path that names the key.
        if (expectBounded(platform.converter.toCapi(changed, context)) > 0) rejected++;
      }
      expect(rejected).to.be.above(0);
    });

    it(`${platform.platform}: a huge string where an object, a list or a number belongs`, () => {
      const spec = providerSpecOf(platform.machineSet());
      let rejected = 0;
      for (const keys of [...objectPaths(spec), ...scalarLeaves(spec).map(([k]) => k)]) {
        if (keys.length === 0) continue;
        const changed = applyPatch(spec, [{ op: 'replace', path: jsonPointer(keys), value: HUGE }]);
        if (expectBounded(platform.converter.toCapi(changed, context)) > 0) rejected++;
      }
      expect(rejected).to.be.above(3);
    });
  }
});
