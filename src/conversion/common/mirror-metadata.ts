// The labels and annotations a mirror gets, each remembering the MAPI field it comes from, so
// that what would be refused once written (an invalid key, a conflict) is reported on that field.
import type { ConversionReport, MapEntry } from './field-reader.js';
import {
  annotationKeyProblem,
  annotationsBytes,
  labelKeyProblem,
  labelValueProblem,
  MAX_ANNOTATIONS_BYTES,
} from '../../model/kube-names.js';
import { convertAnnotation, convertLabel } from './metadata.js';
import { quote, shorten } from './quote.js';

export type MetadataKind = 'label' | 'annotation';

interface Written {
  value: string;
  /** The MAPI field it comes from; undefined for what the controller itself sets. */
  path?: string;
  /** True when the MAPI key was changed on the way (e.g. a role label became a node-role label). */
  renamed: boolean;
  /** For what the controller sets: why it has this value, completing "but …". */
  reason?: string;
}

export class WrittenMap {
  private readonly entries = new Map<string, Written>();

  /** `target` names the object that gets the map, e.g. `the Cluster API machine template`. */
  constructor(
    readonly kind: MetadataKind,
    private readonly target: string,
    private readonly report: ConversionReport,
  ) {}

  /**
   * Sets what the controller decides, e.g. the cluster name label, before the MAPI entries: one
   * of them with another value is an error. `reason` completes "but …" in that error.
   */
  fix(key: string, value: string, reason: string): void {
    this.entries.set(key, { value, renamed: false, reason });
  }

  /** Sets what the controller decides, replacing any MAPI entry, e.g. the paused annotation. */
  override(key: string, value: string): void {
    this.entries.delete(key);
    this.entries.set(key, { value, renamed: false });
  }

  /** Sets a MAPI label or annotation as it is written, after its transform. */
  addConverted(entries: readonly MapEntry[]): void {
    const convert = this.kind === 'label' ? convertLabel : convertAnnotation;
    for (const { key, value, path } of entries) {
      const converted = convert(key, value);
      if (converted) this.add(converted[0], converted[1], path, converted[0] !== key);
    }
  }

  /** Sets one entry from the MAPI field at `path`; a different value already set is an error. */
  add(key: string, value: string, path: string, renamed = false): void {
    const previous = this.entries.get(key);
    if (previous === undefined) {
      this.entries.set(key, { value, path, renamed });
      return;
    }
    if (previous.value === value) return;
    const named = renamed ? ` (as ${this.kind} ${shorten(key)})` : '';
    if (previous.path === undefined) {
      this.report.error(
        path,
        `is ${quote(value)}${named}, but ${previous.reason ?? 'the controller sets it'}; ` +
          `remove the ${this.kind} or set it to ${quote(previous.value)}.`,
      );
      return;
    }
    this.report.error(
      path,
      `sets the ${this.kind} ${shorten(key)} to ${quote(value)}, but ${previous.path} sets it ` +
        `to ${quote(previous.value)}; both end up on ${this.target}, so make them agree.`,
    );
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string): string | undefined {
    return this.entries.get(key)?.value;
  }

  /** The MAPI field that set `key`, if any. */
  source(key: string): string | undefined {
    return this.entries.get(key)?.path;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The map as written: the MAPI entries in order, then what the controller sets. */
  toObject(): Record<string, string> {
    const all = [...this.entries];
    const ordered = [
      ...all.filter(([, entry]) => entry.path !== undefined),
      ...all.filter(([, entry]) => entry.path === undefined),
    ];
    return Object.fromEntries(ordered.map(([key, { value }]) => [key, value]));
  }

  /**
   * Reports, on the MAPI field each comes from, every key or value the API server would refuse;
   * for annotations also a total size over its limit, on `sizePath`.
   */
  validate(sizePath: string): void {
    for (const [key, written] of this.entries) {
      if (written.path === undefined) continue;
      const keyProblem = this.kind === 'label' ? labelKeyProblem(key) : annotationKeyProblem(key);
      if (keyProblem !== undefined) {
        const subject = written.renamed
          ? `becomes the ${this.kind} ${shorten(key)}, which is not a valid ${this.kind} key`
          : `is not a valid ${this.kind} key`;
        this.report.error(written.path, `${subject}: ${keyProblem}; correct the key.`);
      }
      const valueProblem = this.kind === 'label' ? labelValueProblem(written.value) : undefined;
      if (valueProblem !== undefined) {
        this.report.error(
          written.path,
          `is ${quote(written.value)}, which is not a valid label value: ${valueProblem}; correct the value.`,
        );
      }
    }
    if (this.kind === 'annotation') {
      const bytes = annotationsBytes([...this.entries].map(([key, { value }]) => [key, value]));
      if (bytes > MAX_ANNOTATIONS_BYTES) {
        this.report.error(
          sizePath,
          `add up to ${bytes} bytes on ${this.target}, more than the ${MAX_ANNOTATIONS_BYTES} ` +
            `bytes the API server accepts for the annotations of an object; remove or shorten some.`,
        );
      }
    }
  }
}
