import { selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';

/** `selectAll` that reports an invalid selector instead of throwing. */
export function selectSafe(selector: string, root: AnyNode | AnyNode[], warnings: string[], option: string): Element[] {
  try {
    return selectAll<AnyNode, Element>(selector, root);
  } catch (error) {
    warnings.push(
      `Ignored an invalid CSS selector in ${option}: ${JSON.stringify(selector)} (${(error as Error).message}).`,
    );
    return [];
  }
}
