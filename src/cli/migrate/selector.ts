// Label selectors as kubectl takes them after -l, matched against an object's labels. Pure.

type Requirement =
  { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | 'absent' };

export type Selector = Requirement[];

const KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/** Splits on commas outside parentheses. */
function split(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts.map((p) => p.trim());
}

function requirement(text: string): Requirement | string {
  const set = /^(\S+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(text);
  const equality = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(text);
  const existence = /^(!?)\s*([^=!\s()]+)$/.exec(text);
  let result: Requirement;
  if (set) {
    const values = set[3]!.split(',').map((v) => v.trim());
    result = { key: set[1]!, op: set[2] as 'in' | 'notin', values };
  } else if (equality) {
    result = {
      key: equality[1]!,
      op: equality[2] === '!=' ? 'notin' : 'in',
      values: [equality[3]!],
    };
  } else if (existence) {
    result = { key: existence[2]!, op: existence[1] ? 'absent' : 'exists' };
  } else {
    return `cannot read "${text}"`;
  }
  if (!KEY.test(result.key)) return `"${result.key}" is not a valid label key`;
  if ('values' in result) {
    const bad = result.values.find((v) => !VALUE.test(v) || v.length > 63);
    if (bad !== undefined) return `"${bad}" is not a valid label value`;
  }
  return result;
}

/** The selector, or a message saying what is wrong with it. */
export function parseSelector(text: string): Selector | string {
  if (text.trim() === '') return 'the selector is empty';
  const requirements: Selector = [];
  for (const part of split(text)) {
    if (part === '') return 'an empty requirement (two commas in a row, or one at an end)';
    const parsed = requirement(part);
    if (typeof parsed === 'string') return parsed;
    requirements.push(parsed);
  }
  return requirements;
}

export function matches(selector: Selector, labels: Record<string, string> = {}): boolean {
  return selector.every((r) => {
    const has = Object.hasOwn(labels, r.key);
    switch (r.op) {
      case 'exists':
        return has;
      case 'absent':
        return !has;
      case 'in':
        return has && r.values.includes(labels[r.key]!);
      case 'notin':
        return !has || !r.values.includes(labels[r.key]!);
    }
  });
}
