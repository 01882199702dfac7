// The syntax Kubernetes requires of label keys and values and of annotation keys (what
// apimachinery's IsQualifiedName, IsValidLabelValue and ValidateAnnotations check), so that a
// mirror is never refused by the API server or the Cluster API webhook.

/** A label value, and the name part of a label or annotation key. */
const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const NAME_MAX_LENGTH = 63;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_SUBDOMAIN_MAX_LENGTH = 253;
/** The API server's limit on the sum of the lengths of an object's annotation keys and values. */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;

const NAME_CHARACTERS =
  "alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character";

/** Why `key` is not a valid label key (a qualified name), or undefined when it is. */
export function labelKeyProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) {
    return "it has more than one '/'; a key is a name, optionally preceded by a DNS subdomain prefix and '/'";
  }
  const [prefix, name] = parts.length === 2 ? [parts[0]!, parts[1]!] : [undefined, parts[0]!];
  if (prefix !== undefined) {
    if (prefix === '')
      return "its prefix is empty; remove the '/' or put a DNS subdomain before it";
    if (prefix.length > DNS_SUBDOMAIN_MAX_LENGTH) {
      return `its prefix is ${prefix.length} characters long, more than the ${DNS_SUBDOMAIN_MAX_LENGTH} of a DNS subdomain`;
    }
    if (!DNS_SUBDOMAIN.test(prefix)) {
      return "its prefix is not a DNS subdomain (lower-case alphanumeric characters, '-' and '.')";
    }
  }
  if (name === '') return 'its name part is empty';
  if (name.length > NAME_MAX_LENGTH) {
    return `its name part is ${name.length} characters long, more than ${NAME_MAX_LENGTH}`;
  }
  if (!NAME.test(name)) return `its name part must consist of ${NAME_CHARACTERS}`;
  return undefined;
}

/** Why `key` is not a valid annotation key (a qualified name in any case), or undefined. */
export function annotationKeyProblem(key: string): string | undefined {
  return labelKeyProblem(key.toLowerCase());
}

/** Why `value` is not a valid label value, or undefined when it is. */
export function labelValueProblem(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > NAME_MAX_LENGTH) {
    return `it is ${value.length} characters long, more than ${NAME_MAX_LENGTH}`;
  }
  if (!NAME.test(value)) return `it must be empty or consist of ${NAME_CHARACTERS}`;
  return undefined;
}

/** Why `name` is not a valid object name (a DNS subdomain), or undefined when it is. */
export function objectNameProblem(name: string): string | undefined {
  if (name.length > DNS_SUBDOMAIN_MAX_LENGTH) {
    return `it is ${name.length} characters long, more than ${DNS_SUBDOMAIN_MAX_LENGTH}`;
  }
  if (!DNS_SUBDOMAIN.test(name)) {
    return "it must consist of lower-case alphanumeric characters, '-' and '.', starting and ending with an alphanumeric character";
  }
  return undefined;
}

/** The size the API server counts for annotations: the UTF-8 bytes of every key and value. */
export function annotationsBytes(annotations: Iterable<[string, string]>): number {
  let total = 0;
  for (const [key, value] of annotations) total += utf8Length(key) + utf8Length(value);
  return total;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    // A surrogate pair is one code point of 4 bytes; a lone surrogate becomes U+FFFD (3 bytes).
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
