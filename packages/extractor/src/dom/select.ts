import { selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import type { WarningSink } from '../page-warnings.js';

/** A tag name with a colon read as a pseudo-class: Word's `st1:place`, a namespace prefix (`o:p`, `fb:like`). */
const PREFIXED_TAG = /(?:^|[\s>+~,(])([a-z][\w-]*):([a-z][\w-]*)/i;

/** What to write instead, when the selector names a prefixed tag as written in the page. */
function hint(selector: string, message: string): string {
  const tag = PREFIXED_TAG.exec(selector);
  if (!tag || !message.includes(`:${tag[2]}`)) return '';
  return ` A tag name with a colon is written with a backslash before it: ${JSON.stringify(`${tag[1]}\\:${tag[2]}`)}.`;
}

/** `selectAll` that reports an invalid selector instead of throwing. */
export function selectSafe(
  selector: string,
  root: AnyNode | AnyNode[],
  warnings: WarningSink,
  option: string,
): Element[] {
  try {
    return selectAll<AnyNode, Element>(selector, root);
  } catch (error) {
    const message = (error as Error).message;
    warnings.push(
      `Ignored an invalid CSS selector in ${option}: ${JSON.stringify(selector)} (${message}).` +
        hint(selector, message),
    );
    return [];
  }
}
