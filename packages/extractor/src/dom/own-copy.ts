/**
 * A copy of `text` that shares no memory with the string it came from. A substring V8 makes of a long string (13
 * characters or more) is a view of it, and keeps all of it alive: an attribute's value keeps its page's whole text.
 * What outlives a page (a cache across pages) keeps copies. JSON's parser builds its strings anew, lone surrogates
 * included (they are escaped on the way).
 */
export function ownCopy(text: string): string {
  const copy: unknown = JSON.parse(JSON.stringify(text));
  return typeof copy === 'string' ? copy : text;
}
