// YAML or JSON text → the Machine API MachineSets in it. Pure: the text comes from the caller.
// Accepts single objects, several documents, and lists (`List`, `MachineSetList`), as
// `oc get -o yaml|json` prints them; anything else is refused with where it is and what it is.
import { loadAllYaml } from '@kubernetes/client-node';
import type { MapiMachineSet } from '../../api/types.js';
import { CheckInputError } from './flags.js';

const MAPI_API_VERSION = 'machine.openshift.io/v1beta1';
const MAX_SHOWN = 60;

/** A document's text and the line (1-based) where it starts in the input. */
interface Document {
  text: string;
  line: number;
}

/** Every MachineSet in `text`, read from `source` (a file name, or stdin), in order. */
export function parseMachineSets(text: string, source: string): MapiMachineSet[] {
  const machineSets: MapiMachineSet[] = [];
  let number = 0;
  for (const document of splitDocuments(text)) {
    for (const value of load(document, source)) {
      number++;
      machineSets.push(...machineSetsIn(value, `${source}: document ${number}`));
    }
  }
  return machineSets;
}

/**
 * The documents between `---` lines, without those holding only comments or blanks: client-node's
 * loader cannot read an empty document, and a trailing `---` is common.
 */
function splitDocuments(text: string): Document[] {
  const documents: Document[] = [];
  let current: string[] = [];
  let start = 1;
  const lines = text.split(/\r?\n/);
  const flush = (): void => {
    if (current.some((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))) {
      documents.push({ text: current.join('\n'), line: start });
    }
  };
  lines.forEach((line, index) => {
    const marker = /^---(?:[ \t]+(.*))?$/.exec(line);
    if (!marker) {
      current.push(line);
      return;
    }
    flush();
    // Content after the marker (`--- {…}`) belongs to the new document.
    current = marker[1] !== undefined ? [marker[1]] : [];
    start = index + (marker[1] !== undefined ? 1 : 2);
  });
  flush();
  return documents;
}

function load(document: Document, source: string): unknown[] {
  let values: unknown[];
  try {
    values = loadAllYaml(document.text);
  } catch (err) {
    const problem = err as { reason?: unknown; mark?: { line?: unknown } };
    if (typeof problem.reason === 'string') {
      const line = document.line + (typeof problem.mark?.line === 'number' ? problem.mark.line : 0);
      throw new CheckInputError(`${source}:${line}: not valid YAML or JSON: ${problem.reason}`);
    }
    throw new CheckInputError(
      `${source}:${document.line}: a document is empty or not a Kubernetes object`,
    );
  }
  // Plain JSON from here on: the loader turns some metadata fields into Dates.
  return values.map((value) => JSON.parse(JSON.stringify(value ?? null)) as unknown);
}

function machineSetsIn(value: unknown, where: string): MapiMachineSet[] {
  if (!isObject(value)) {
    throw new CheckInputError(`${where} is ${describeValue(value)}, not a Kubernetes object`);
  }
  const { apiVersion, kind } = value;
  if (typeof kind === 'string' && kind.endsWith('List') && 'items' in value) {
    if (!Array.isArray(value.items)) {
      throw new CheckInputError(`${where}: items is ${describeValue(value.items)}, not a list`);
    }
    return value.items.flatMap((item, i) => machineSetsIn(item, `${where}, items[${i}]`));
  }
  if (apiVersion !== MAPI_API_VERSION || kind !== 'MachineSet') {
    throw new CheckInputError(`${where} is ${describeObject(apiVersion, kind)}`);
  }
  const metadata = value.metadata;
  if (!isObject(metadata) || typeof metadata.name !== 'string' || metadata.name === '') {
    throw new CheckInputError(`${where}: metadata.name is missing`);
  }
  return [value as unknown as MapiMachineSet];
}

function describeObject(apiVersion: unknown, kind: unknown): string {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    return `not a Kubernetes object (it needs apiVersion and kind); expected a ${MAPI_API_VERSION} MachineSet`;
  }
  const what = `a ${shorten(apiVersion)} ${shorten(kind)}`;
  if (kind === 'MachineSet') {
    // `oc get machinesets` can mean Cluster API's where both are installed.
    return `${what}, not a Machine API MachineSet (${MAPI_API_VERSION}); use oc get machinesets.machine.openshift.io`;
  }
  return `${what}, not a Machine API MachineSet (${MAPI_API_VERSION})`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the text "${shorten(value)}"`;
  return `a ${typeof value}`;
}

function shorten(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
