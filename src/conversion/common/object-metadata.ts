// The labels and annotations of an object's metadata (a MachineSet's, a Machine's, a machine
// template's or a Node's), read the same way on both sides.
import type { MapEntry, ObjectReader } from './field-reader.js';

export interface MetadataMaps {
  labels: MapEntry[];
  annotations: MapEntry[];
}

/**
 * Reads the labels and annotations of `metadata` into `maps`; false when some label could not be
 * read, so that the labels are incomplete.
 */
export function readMetadataMaps(metadata: ObjectReader, maps: MetadataMaps): boolean {
  const before = metadata.report.errors.length;
  maps.labels = metadata.stringMap('labels') ?? [];
  const labelsRead = metadata.report.errors.length === before;
  maps.annotations = metadata.stringMap('annotations') ?? [];
  return labelsRead;
}
