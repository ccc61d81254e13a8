import { selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import type { WarningSink } from '../page-warnings.js';

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
    warnings.push(
      `Ignored an invalid CSS selector in ${option}: ${JSON.stringify(selector)} (${(error as Error).message}).`,
    );
    return [];
  }
}
