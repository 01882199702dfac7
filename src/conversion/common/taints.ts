// Node taints: MAPI `spec.template.spec.taints` (core/v1 Taints) ⇄ Cluster API's
// `spec.template.spec.taints` (MachineTaints, Cluster API v1.13).
//
// machine-api-operator's nodelink controller adds the taints of a Machine to its Node on every
// reconcile of the Node, whenever a taint with the same key and effect is missing: a taint removed
// from the Node comes back. Cluster API's `propagation: Always` does the same (it also removes a
// taint removed from the Machine, which nodelink never does); `OnInitialization` sets the taint
// once and has no Machine API equivalent.
import { type ArrayItem, type ConversionReport, ObjectReader } from './field-reader.js';
import { quote } from './quote.js';
import { labelKeyProblem, labelValueProblem } from '../../model/kube-names.js';

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
const ALWAYS = 'Always';
const ON_INITIALIZATION = 'OnInitialization';
/** Cluster API's `maxItems` for a Machine's taints. */
const MAX_TAINTS = 64;

export interface CapiTaint {
  key: string;
  value?: string;
  effect: string;
  propagation: typeof ALWAYS | typeof ON_INITIALIZATION;
}

export interface MapiTaint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

/** What both directions read of one taint; undefined fields are reported already. */
interface TaintFields {
  reader: ObjectReader;
  key?: string;
  value?: string;
  effect?: string;
}

/**
 * MAPI → CAPI: every taint with `propagation: Always`; `timeAdded` is dropped with a warning.
 * Cluster API v1.13 accepts machine taints only with its alpha `MachineTaintPropagation` feature
 * gate (off by default): without it, its webhooks refuse a MachineSet or Machine with taints, and
 * its Machine controller puts no taint on Nodes. Converted taints always come with a warning
 * saying so.
 */
export function taintsToCapi(items: readonly ArrayItem[], path: string, report: ConversionReport) {
  const taints: CapiTaint[] = [];
  checkCount(items.length, path, 'Cluster API accepts', report);
  for (const taint of readTaints(items, report, 'Cluster API')) {
    const { reader, key, value, effect } = taint;
    const timeAdded = reader.raw('timeAdded');
    if (timeAdded !== undefined) {
      report.warn(
        `${reader.pathOf('timeAdded')} is not converted: Cluster API taints have no time, and ` +
          `the node controller sets it on the Node itself for NoExecute taints.`,
      );
    }
    reader.finish();
    if (key === undefined || effect === undefined) continue;
    taints.push({ key, ...(value ? { value } : {}), effect, propagation: ALWAYS });
  }
  if (taints.length > 0) {
    report.warn(
      `${path} become Cluster API machine taints, which Cluster API accepts only with its alpha ` +
        'MachineTaintPropagation feature gate enabled: without it, its webhook refuses the ' +
        `${path.startsWith('spec.template.') ? 'MachineSet' : 'Machine'}. Enable the gate on the ` +
        'Cluster API controllers, or remove the taints.',
    );
  }
  return taints;
}

/**
 * CAPI → MAPI: the taints of Cluster API as MAPI taints, each keeping the `timeAdded` of the
 * current MAPI taint with the same key and effect (Cluster API has no place for it).
 */
export function taintsToMapi(
  items: readonly ArrayItem[],
  current: readonly MapiTaint[],
  report: ConversionReport,
): MapiTaint[] {
  const taints: MapiTaint[] = [];
  for (const taint of readTaints(items, report, 'Machine API')) {
    const { reader, key, value, effect } = taint;
    const propagation = reader.raw('propagation');
    if (propagation === undefined || propagation === '') {
      report.error(reader.pathOf('propagation'), `is required; use ${ALWAYS}.`);
    } else if (propagation === ON_INITIALIZATION) {
      report.error(
        reader.pathOf('propagation'),
        `is ${ON_INITIALIZATION}, but Machine API puts a machine's taints back on its Node ` +
          `whenever they are missing and has no taint that is set only once; use ${ALWAYS}, or ` +
          `remove the taint and taint the nodes another way.`,
      );
    } else if (propagation !== ALWAYS) {
      report.error(
        reader.pathOf('propagation'),
        `is ${typeof propagation === 'string' ? quote(propagation) : 'not a string'}, which is ` +
          `not a taint propagation; use ${ALWAYS}.`,
      );
    }
    reader.finishToMachineApi();
    if (key === undefined || effect === undefined) continue;
    const same = current.find((t) => t.key === key && t.effect === effect);
    taints.push({
      key,
      ...(value ? { value } : {}),
      effect,
      ...(same?.timeAdded !== undefined ? { timeAdded: same.timeAdded } : {}),
    });
  }
  return taints;
}

/** The current MAPI taints, read leniently: only what the reverse conversion keeps. */
export function currentMapiTaints(value: unknown): MapiTaint[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { key, effect, timeAdded } = item as Record<string, unknown>;
    if (typeof key !== 'string' || typeof effect !== 'string') return [];
    return [{ key, effect, ...(typeof timeAdded === 'string' ? { timeAdded } : {}) }];
  });
}

function checkCount(count: number, path: string, who: string, report: ConversionReport) {
  if (count <= MAX_TAINTS) return;
  report.error(
    path,
    `has ${count} taints, but ${who} at most ${MAX_TAINTS} per machine; remove some.`,
  );
}

/** Reads key, value and effect of every taint and reports invalid or repeated ones. */
function readTaints(
  items: readonly ArrayItem[],
  report: ConversionReport,
  target: string,
): TaintFields[] {
  const seen = new Map<string, string>();
  return items.flatMap(({ value, path }) => {
    const reader = ObjectReader.of(value, path, report);
    if (reader === undefined) return [];
    const key = reader.requiredString('key', 'set the taint key.');
    const taintValue = reader.string('value');
    const effect = reader.requiredString('effect', `use one of ${TAINT_EFFECTS.join(', ')}.`);
    const fields: TaintFields = { reader };
    const keyProblem = key === undefined ? undefined : labelKeyProblem(key);
    if (keyProblem !== undefined) {
      report.error(
        reader.pathOf('key'),
        `is ${quote(key!)}, which is not a valid taint key: ${keyProblem}; correct it.`,
      );
    } else fields.key = key;
    const valueProblem = taintValue === undefined ? undefined : labelValueProblem(taintValue);
    if (valueProblem !== undefined) {
      report.error(
        reader.pathOf('value'),
        `is ${quote(taintValue!)}, which is not a valid taint value: ${valueProblem}; correct it.`,
      );
    } else fields.value = taintValue;
    if (effect !== undefined && !(TAINT_EFFECTS as readonly string[]).includes(effect)) {
      report.error(
        reader.pathOf('effect'),
        `is ${quote(effect)}, which is not a taint effect; use one of ${TAINT_EFFECTS.join(', ')}.`,
      );
    } else fields.effect = effect;
    if (fields.key !== undefined && fields.effect !== undefined) {
      const id = `${fields.key}:${fields.effect}`;
      const first = seen.get(id);
      if (first !== undefined) {
        report.error(
          path,
          `repeats the taint ${quote(fields.key)} with effect ${fields.effect} of ${first}; ` +
            `${target} keeps one taint per key and effect, so remove one of them.`,
        );
        fields.key = undefined;
      } else seen.set(id, path);
    }
    return [fields];
  });
}
