// MAPI references an AWS resource by id, ARN or filters; CAPA's AWSResourceReference knows
// only id or filters (one of them). This reads the MAPI shape and converts what CAPA can hold.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';

interface AwsFilter {
  name: string;
  values: string[];
}

export interface MapiResourceReference {
  path: string;
  id?: string;
  arn?: string;
  filters?: AwsFilter[];
}

export type CapaResourceReference = { id: string } | { filters: AwsFilter[] };

export function readResourceReference(reader: ObjectReader): MapiResourceReference {
  const reference: MapiResourceReference = { path: reader.path };
  const id = reader.string('id');
  const arn = reader.string('arn');
  const filters = reader.objects('filters')?.flatMap((filter) => readFilter(filter) ?? []);
  reader.finish();
  if (id !== undefined) reference.id = id;
  if (arn !== undefined) reference.arn = arn;
  if (filters !== undefined && filters.length > 0) reference.filters = filters;
  return reference;
}

function readFilter(reader: ObjectReader): AwsFilter | undefined {
  const name = reader.string('name');
  // CAPA requires `values`; a MAPI filter without values sends none either.
  const values = reader.strings('values') ?? [];
  reader.finish();
  if (name === undefined) {
    reader.report.error(reader.pathOf('name'), 'is required; name the AWS filter, e.g. tag:Name.');
    return undefined;
  }
  return { name, values };
}

/**
 * The CAPA reference for a MAPI one, or undefined when it names nothing or cannot be
 * converted (then an error is recorded). `what` names the resource in messages.
 */
export function toCapaReference(
  reference: MapiResourceReference,
  what: string,
  report: ConversionReport,
): CapaResourceReference | undefined {
  if (reference.arn !== undefined) {
    report.error(
      `${reference.path}.arn`,
      `cannot be used, because Cluster API cannot reference ${what} by ARN; reference it by id or by filters instead.`,
    );
    return undefined;
  }
  if (reference.id !== undefined && reference.filters !== undefined) {
    report.error(
      reference.path,
      `sets both id and filters, but Cluster API accepts only one of them for ${what}; keep either the id or the filters.`,
    );
    return undefined;
  }
  if (reference.id !== undefined) return { id: reference.id };
  if (reference.filters !== undefined) return { filters: reference.filters };
  return undefined;
}

/** True when the reference names no resource at all. */
export function isEmptyReference(reference: MapiResourceReference): boolean {
  return (
    reference.id === undefined && reference.arn === undefined && reference.filters === undefined
  );
}
