// State data left in the page's text: a JSON object or array a script reads from a (CSS-hidden) element.
import type { Text } from 'domhandler';

/** Shorter JSON-looking text is left alone: a price tag `{"EUR"}` or a template placeholder is not worth a parse. */
const MIN_CHARS = 200;
const OPENS = /^\s*(?:\{\s*"|\[\s*[{["\d])/;
const CLOSES = /[}\]]\s*$/;
/** Elements whose JSON is shown to the reader: code samples of documentation. */
const SHOWN_IN = new Set(['pre', 'code', 'samp', 'kbd', 'textarea']);

/**
 * Whether a text node is machine state: the whole text is a JSON object or array of 200+ characters (a widget's
 * settings or a product grid's data, in an element the site's CSS hides), not inside code shown to the reader.
 */
export function isStateData(node: Text): boolean {
  const data = node.data;
  if (data.length < MIN_CHARS || !OPENS.test(data) || !CLOSES.test(data)) return false;
  for (let p = node.parent; p && 'name' in p; p = p.parent) if (SHOWN_IN.has(p.name)) return false;
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}
