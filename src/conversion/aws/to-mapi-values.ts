// Small CAPA → MAPI value conversions shared by the reverse converter's parts.
import type {
  ConversionReport,
  JsonObject,
  MapEntry,
  ObjectReader,
} from '../common/field-reader.js';

/** A CAPA tag map → MAPI's `[{name, value}]`, in map order; undefined when there are none. */
export function mapToTags(entries: MapEntry[] | undefined): JsonObject[] | undefined {
  if (entries === undefined || entries.length === 0) return undefined;
  return entries.map(({ key, value }) => ({ name: key, value }));
}

/**
 * A CAPA AWSResourceReference (`id` or `filters`) → the MAPI reference; undefined when it names
 * nothing (`what` says what it names, for messages) or cannot be converted.
 */
export function referenceToMapi(
  reader: ObjectReader,
  what: string,
  report: ConversionReport,
): JsonObject | undefined {
  const id = reader.string('id');
  const filters = reader.objects('filters')?.flatMap((filter) => filterToMapi(filter) ?? []);
  reader.finishToMachineApi();
  if (id !== undefined && filters !== undefined && filters.length > 0) {
    report.error(
      reader.path,
      `sets both id and filters, but Machine API accepts only one of them for ${what}; keep either the id or the filters.`,
    );
    return undefined;
  }
  if (id !== undefined) return { id };
  if (filters !== undefined && filters.length > 0) return { filters };
  return undefined;
}

function filterToMapi(reader: ObjectReader): JsonObject | undefined {
  const name = reader.string('name');
  const values = reader.strings('values');
  reader.finishToMachineApi();
  if (name === undefined) {
    reader.report.error(reader.pathOf('name'), 'is required; name the AWS filter, e.g. tag:Name.');
    return undefined;
  }
  return values !== undefined && values.length > 0 ? { name, values } : { name };
}
