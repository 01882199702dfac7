// The mirror's label selector: converted like the labels it selects, checked the way
// apimachinery's LabelSelectorAsSelector checks it, and checked against the template's labels as
// the Cluster API MachineSet webhook does. Every error names the MAPI selector field.
import type { LabelSelector } from '../../api/types.js';
import type { ConversionReport } from '../common/field-reader.js';
import { labelKeyProblem, labelValueProblem } from '../../model/kube-names.js';
import type { SelectorInput } from './input.js';
import { NODE_ROLE_PREFIX } from '../common/metadata.js';
import type { WrittenMap } from '../common/mirror-metadata.js';
import { quote, quoteList, shorten } from '../common/quote.js';

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
type Operator = (typeof OPERATORS)[number];

/** Labels the conversion renames or drops: a selector on them finds nothing on the CAPI side. */
const CHANGED_LABELS = new Map([
  ['machine.openshift.io/cluster-api-machine-role', `turns it into ${NODE_ROLE_PREFIX}<role>`],
  ['machine.openshift.io/cluster-api-machine-type', `turns it into ${NODE_ROLE_PREFIX}<type>`],
  ['machine.openshift.io/instance-type', 'drops it'],
  ['machine.openshift.io/region', 'drops it'],
  ['machine.openshift.io/zone', 'drops it'],
]);

/** One requirement of the selector as written, with the MAPI field it comes from. */
interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
  path: string;
  /** From matchLabels (key = value) rather than matchExpressions. */
  fromMatchLabels: boolean;
}

export interface ConvertedSelector {
  selector: LabelSelector;
  requirements: Requirement[];
}

/**
 * The selector as written: matchLabels through the label transforms plus the cluster name (set
 * in `matchLabels` by the caller), matchExpressions as they are. Undefined when it is invalid.
 */
export function convertSelector(
  input: SelectorInput,
  matchLabels: WrittenMap,
  report: ConversionReport,
): ConvertedSelector | undefined {
  const before = report.errors.length;
  matchLabels.addConverted(input.matchLabels);
  const written = matchLabels.toObject();
  const requirements: Requirement[] = Object.entries(written).flatMap(([key, value]) => {
    const path = matchLabels.source(key);
    if (path === undefined) return [];
    return [{ key, operator: 'In' as const, values: [value], path, fromMatchLabels: true }];
  });
  matchLabels.validate('spec.selector.matchLabels');

  const expressions = input.matchExpressions.flatMap((expression) => {
    const requirement = checkExpression(expression, report);
    return requirement ? [requirement] : [];
  });
  if (report.errors.length > before) return undefined;
  if (requirements.length + expressions.length === 0) {
    report.error(
      'spec.selector',
      'selects every Machine: it has no matchLabels or matchExpressions that the conversion ' +
        'keeps, so the mirror would claim every Cluster API Machine of the cluster; select the ' +
        'machines of this MachineSet, e.g. with machine.openshift.io/cluster-api-machineset: <name>.',
    );
    return undefined;
  }
  const selector: LabelSelector = { matchLabels: written };
  if (expressions.length > 0) {
    selector.matchExpressions = expressions.map(({ key, operator, values }) => ({
      key,
      operator,
      ...(values.length > 0 ? { values } : {}),
    }));
  }
  return { selector, requirements: [...requirements, ...expressions] };
}

function checkExpression(
  expression: SelectorInput['matchExpressions'][number],
  report: ConversionReport,
): Requirement | undefined {
  const { key, operator, values, path } = expression;
  let valid = true;
  const error = (field: string, message: string) => {
    report.error(`${path}${field}`, message);
    valid = false;
  };
  if (key === undefined || key === '') {
    error('.key', 'is required; set the label key the expression tests.');
  } else {
    const problem = labelKeyProblem(key);
    if (problem)
      error('.key', `is ${quote(key)}, which is not a valid label key: ${problem}; correct it.`);
  }
  if (operator === undefined || operator === '') {
    error('.operator', `is required; use ${OPERATORS.join(', ')}.`);
  } else if (!(OPERATORS as readonly string[]).includes(operator)) {
    error(
      '.operator',
      `is ${quote(operator)}, which is not a label selector operator; use ${OPERATORS.join(', ')}.`,
    );
  } else if (operator === 'In' || operator === 'NotIn') {
    if (values.length === 0) {
      error('.values', `is required for the ${operator} operator; list the label values to match.`);
    }
  } else if (values.length > 0) {
    error('.values', `must be empty for the ${operator} operator; remove the values.`);
  }
  values.forEach((value, index) => {
    const problem = labelValueProblem(value);
    if (problem) {
      error(
        `.values[${index}]`,
        `is ${quote(value)}, which is not a valid label value: ${problem}; correct it.`,
      );
    }
  });
  if (!valid || key === undefined || operator === undefined) return undefined;
  return { key, operator: operator as Operator, values, path, fromMatchLabels: false };
}

/**
 * Reports every requirement of the selector that the template's labels do not meet: Cluster API
 * refuses a MachineSet whose selector does not select its own template.
 */
export function checkSelectorMatches(
  { requirements }: ConvertedSelector,
  templateLabels: WrittenMap,
  report: ConversionReport,
): void {
  for (const requirement of requirements) {
    if (matches(requirement, templateLabels)) continue;
    report.error(requirement.path, mismatch(requirement, templateLabels));
  }
}

function matches({ key, operator, values }: Requirement, labels: WrittenMap): boolean {
  return meetsRequirement(labels.get(key), operator, values);
}

/** Whether a label's value (undefined: no such label) meets one selector requirement. */
export function meetsRequirement(
  value: string | undefined,
  operator: string,
  values: readonly string[],
): boolean {
  switch (operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    default:
      return false;
  }
}

function mismatch(requirement: Requirement, labels: WrittenMap): string {
  const { key } = requirement;
  const label = shorten(key);
  const value = labels.get(key);
  const changed = CHANGED_LABELS.get(key);
  let why: string;
  if (value === undefined) {
    why = 'the Cluster API machine template has no such label';
    if (changed) why += `, because the conversion ${changed}`;
  } else {
    const source = labels.source(key);
    why = `the Cluster API machine template's label ${label} is ${quote(value)}`;
    if (source) why += ` (from ${source})`;
  }
  const fix = changed
    ? 'select the machines by a label the conversion keeps, such as machine.openshift.io/cluster-api-machineset'
    : 'make the labels of spec.template.metadata.labels meet it, or change the selector';
  return (
    `${describe(requirement)}, but ${why}; ${fix} (Cluster API only accepts a MachineSet whose ` +
    `selector matches the labels of its machine template).`
  );
}

function describe({ key, operator, values, fromMatchLabels }: Requirement): string {
  const label = shorten(key);
  if (fromMatchLabels) return `requires the label ${label}: ${quote(values[0] ?? '')}`;
  switch (operator) {
    case 'In':
      return `requires the label ${label} to be one of ${quoteList(values)}`;
    case 'NotIn':
      return `requires that the label ${label} is absent or none of ${quoteList(values)}`;
    case 'Exists':
      return `requires the label ${label}`;
    case 'DoesNotExist':
      return `requires that the label ${label} is absent`;
  }
}
