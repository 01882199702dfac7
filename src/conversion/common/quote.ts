// User-supplied text in messages, bounded. A field may hold a megabyte; its error message is a
// condition message and an event, which must stay readable (and within the API's size limits).

/** How many characters of a user-supplied string a message quotes. */
export const QUOTED_LENGTH = 100;
/** How many items of a user-supplied list a message names. */
const LISTED_ITEMS = 5;

/** At most `QUOTED_LENGTH` characters of `value`, each passed through `escape`, and whether all. */
function head(value: string, escape: (char: string) => string): { text: string; whole: boolean } {
  let text = '';
  let taken = 0;
  for (const char of value) {
    const piece = escape(char);
    if (text.length + piece.length > QUOTED_LENGTH) return { text, whole: false };
    text += piece;
    taken += char.length;
  }
  return { text, whole: taken === value.length };
}

/**
 * `value` as JSON, e.g. `"m6i.xlarge"` or `3`; a long string is cut, e.g.
 * `"aaaa…" (1048576 characters)`.
 */
export function quote(value: string | number | boolean): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  const { text, whole } = head(value, (char) => JSON.stringify(char).slice(1, -1));
  return whole ? `"${text}"` : `"${text}…" (${value.length} characters)`;
}

/** `value` as it is, e.g. a kind or a map key in a path; a long one is cut like `quote` cuts. */
export function shorten(value: string): string {
  const { text, whole } = head(value, (char) => char);
  return whole ? text : `${text}… (${value.length} characters)`;
}

/** The path of a map entry, e.g. `metadata.labels[team]`, with the key shortened. */
export function keyPath(path: string, key: string): string {
  return `${path}[${shorten(key)}]`;
}

/** `"a", "b", "c"`; after `LISTED_ITEMS` items, `and N more`. */
export function quoteList(values: readonly string[]): string {
  return nameList(values.map(quote));
}

/** Already formatted items joined with commas; after `LISTED_ITEMS` items, `and N more`. */
export function nameList(items: readonly string[]): string {
  if (items.length <= LISTED_ITEMS) return items.join(', ');
  const more = items.length - LISTED_ITEMS;
  return `${items.slice(0, LISTED_ITEMS).join(', ')} and ${more} more`;
}
