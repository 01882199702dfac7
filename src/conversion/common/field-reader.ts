// Reads an untyped providerSpec field by field. Every value of the wrong type becomes a
// field error, and finish() reports each field nobody read: an unknown field must never
// be dropped silently, because the administrator would lose it without noticing.
import { keyPath, quote, shorten } from './quote.js';
import type { FieldError } from '../types.js';

export type JsonObject = Record<string, unknown>;

/**
 * Collects every error and warning of one conversion, in the order they are found.
 * Error messages continue their path (they are shown as `path: message`), e.g. `is required; ...`.
 */
export class ConversionReport {
  readonly errors: FieldError[] = [];
  readonly warnings: string[] = [];

  error(path: string, message: string): void {
    this.errors.push({ path, message });
  }

  warn(message: string): void {
    this.warnings.push(message);
  }
}

export interface ArrayItem {
  value: unknown;
  path: string;
}

/** One entry of a map of strings (labels, annotations, tags), with its path, e.g. `labels[team]`. */
export interface MapEntry {
  key: string;
  value: string;
  path: string;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields that are set: a converted spec never carries `undefined` (or `key: null` in JSON). */
export function withoutUndefined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** Names a JSON value for an error message, e.g. `the number 3` or `an array`; bounded. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean')
    return `the ${typeof value} ${value}`;
  return typeof value;
}

export class ObjectReader {
  private readonly readKeys = new Set<string>();

  private constructor(
    private readonly value: JsonObject,
    readonly path: string,
    readonly report: ConversionReport,
  ) {}

  /** A reader for `value`, or undefined (after recording an error) when it is not an object. */
  static of(value: unknown, path: string, report: ConversionReport): ObjectReader | undefined {
    if (isJsonObject(value)) return new ObjectReader(value, path, report);
    report.error(path, `must be an object, but is ${describeValue(value)}.`);
    return undefined;
  }

  /**
   * A reader for a whole object from whatever JSON it is: anything but an object reads as an
   * empty one, so that what is required is still reported.
   */
  static root(value: unknown, report: ConversionReport): ObjectReader {
    return new ObjectReader(isJsonObject(value) ? value : {}, '', report);
  }

  /** The path of a field; a key from the user (a map key) is shortened. */
  pathOf(key: string): string {
    const name = shorten(key);
    return this.path === '' ? name : `${this.path}.${name}`;
  }

  /**
   * The object at `key`, read the same way whether it is absent (as an empty object) or set;
   * undefined, after recording an error, when it is not an object.
   */
  objectOrEmpty(key: string): ObjectReader | undefined {
    const value = this.raw(key);
    return ObjectReader.of(value === undefined ? {} : value, this.pathOf(key), this.report);
  }

  /** The raw value, marked as read. `null` counts as absent, as in Go's JSON decoding. */
  raw(key: string): unknown {
    this.readKeys.add(key);
    // Own fields only: `constructor` or `toString` must not be found on Object.prototype.
    const value = Object.hasOwn(this.value, key) ? this.value[key] : undefined;
    return value === null ? undefined : value;
  }

  /**
   * A string field. The empty string counts as absent unless `keepEmpty`: most MAPI string
   * fields are `omitempty`, so "" and a missing field mean the same thing there.
   */
  string(key: string, { keepEmpty = false } = {}): string | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.typeError(key, 'a string', value);
      return undefined;
    }
    return value === '' && !keepEmpty ? undefined : value;
  }

  /** A string field that must be set: absent or empty, it is reported as `is required; <hint>`. */
  requiredString(key: string, hint: string): string | undefined {
    const value = this.raw(key);
    if (value === undefined || value === '') {
      this.report.error(this.pathOf(key), `is required; ${hint}`);
      return undefined;
    }
    return this.string(key);
  }

  boolean(key: string): boolean | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') {
      this.typeError(key, 'true or false', value);
      return undefined;
    }
    return value;
  }

  integer(key: string): number | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      this.typeError(key, 'an integer', value);
      return undefined;
    }
    return value;
  }

  /** A string that must be one of `allowed`; "" counts as absent. */
  enumeration<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.report.error(
      this.pathOf(key),
      `is ${quote(value)}, which is not supported; use one of ${allowedList(allowed)}.`,
    );
    return undefined;
  }

  object(key: string): ObjectReader | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    return ObjectReader.of(value, this.pathOf(key), this.report);
  }

  items(key: string): ArrayItem[] | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) {
      this.typeError(key, 'a list', value);
      return undefined;
    }
    return value.map((item: unknown, index) => ({
      value: item,
      path: `${this.pathOf(key)}[${index}]`,
    }));
  }

  /** A list of objects; items that are not objects are reported and skipped. */
  objects(key: string): ObjectReader[] | undefined {
    const items = this.items(key);
    if (items === undefined) return undefined;
    return items.flatMap(({ value, path }) => ObjectReader.of(value, path, this.report) ?? []);
  }

  strings(key: string): string[] | undefined {
    const items = this.items(key);
    if (items === undefined) return undefined;
    const strings: string[] = [];
    for (const { value, path } of items) {
      if (typeof value === 'string') strings.push(value);
      else this.report.error(path, `must be a string, but is ${describeValue(value)}.`);
    }
    return strings;
  }

  /**
   * A map of strings such as labels: its entries in order. A value that is not a string is
   * reported and skipped; a null one is skipped.
   */
  stringMap(key: string): MapEntry[] | undefined {
    const map = this.object(key);
    if (map === undefined) return undefined;
    const entries: MapEntry[] = [];
    for (const [name, value] of map.entries()) {
      const path = keyPath(map.path, name);
      if (typeof value === 'string') entries.push({ key: name, value, path });
      else if (value !== undefined) {
        this.report.error(path, `must be a string, but is ${describeValue(value)}.`);
      }
    }
    return entries;
  }

  /** Marks every field as read and returns those that are not null. */
  takeAll(): JsonObject {
    // fromEntries defines every key, `__proto__` included, as an own field.
    return Object.fromEntries(this.entries().filter(([, value]) => value !== undefined));
  }

  /** Every field, marked as read, in order; null ones as undefined. */
  entries(): [string, unknown][] {
    return Object.keys(this.value).map((key) => [key, this.raw(key)]);
  }

  /** Reports every field that was never read as unknown. */
  finish(): void {
    this.reportUnread(
      `is not a field this controller knows how to convert to Cluster API, so it refuses ` +
        `rather than drop it; remove the field or correct its spelling.`,
    );
  }

  /**
   * Reports every field that was never read as unknown, when converting to Machine API. With
   * `orKeepOnClusterApi`, the message also offers to leave the MachineSet on Cluster API, for
   * fields of a template that Cluster API does use.
   */
  finishToMachineApi({ orKeepOnClusterApi = false } = {}): void {
    const otherwise = orKeepOnClusterApi ? ', or keep the MachineSet on Cluster API' : '';
    this.reportUnread(
      `is not a field this controller knows how to convert to Machine API, so it refuses ` +
        `rather than drop it; remove the field or correct its spelling${otherwise}.`,
    );
  }

  /** Reports every field that was never read with `message`. */
  reportUnread(message: string): void {
    for (const key of Object.keys(this.value)) {
      if (!this.readKeys.has(key)) this.report.error(this.pathOf(key), message);
    }
  }

  private typeError(key: string, expected: string, value: unknown): void {
    this.report.error(this.pathOf(key), `must be ${expected}, but is ${describeValue(value)}.`);
  }
}

/** The allowed values of an enumeration, all of them: they come from the code, not the user. */
function allowedList(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}
