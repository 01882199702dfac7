// The MAPI selector is kept as it is when Cluster API is authoritative (Cluster API's selector
// carries its own cluster-name label and cannot be written back). It must still select the
// machines the MAPI MachineSet would create, or that MachineSet would own none of them.
import type { ConversionReport } from '../common/field-reader.js';
import { quote, quoteList, shorten } from '../common/quote.js';
import type { SelectorInput } from './input.js';
import { meetsRequirement } from './label-selector.js';

const LABELS_PATH = 'spec.template.metadata.labels';

/** Reports each requirement of the kept MAPI selector that the converted labels do not meet. */
export function checkKeptSelector(
  selector: SelectorInput | undefined,
  machineLabels: Map<string, string>,
  report: ConversionReport,
): void {
  if (selector === undefined) {
    report.error(
      'spec.selector',
      'cannot be kept from the Machine API MachineSet, which has no readable selector; give ' +
        'it one that selects the labels of its machines.',
    );
    return;
  }
  const unmet: string[] = [];
  for (const { key, value, path } of selector.matchLabels) {
    if (machineLabels.get(key) !== value)
      unmet.push(`${path} requires ${shorten(key)}: ${quote(value)}`);
  }
  for (const { key, operator, values, path } of selector.matchExpressions) {
    if (key === undefined || operator === undefined) continue;
    if (!meetsRequirement(machineLabels.get(key), operator, values)) {
      const list = values.length > 0 ? ` ${quoteList(values)}` : '';
      unmet.push(`${path} requires ${shorten(key)} ${operator}${list}`);
    }
  }
  if (unmet.length === 0) return;
  report.error(
    LABELS_PATH,
    `no longer meet the selector of the Machine API MachineSet, which is kept as it is ` +
      `(${unmet.slice(0, 3).join('; ')}${unmet.length > 3 ? ` and ${unmet.length - 3} more` : ''}), ` +
      `so it would own none of its machines; put the labels back on the Cluster API ` +
      `MachineSet's machine template.`,
  );
}
