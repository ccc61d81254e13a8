import type { AnyNode } from 'domhandler';

import { selectSafe } from './dom/select.js';
import type { WarningSink } from './page-warnings.js';

/** One selector of the `attributes` format: which elements, and which of their attributes. */
export interface AttributeSelector {
  selector: string;
  attribute: string;
}

/** The values of one attribute on the elements one selector matches, in document order. */
export interface AttributeValues extends AttributeSelector {
  values: string[];
}

/**
 * The `attributes` format (reference §4): for each selector, the value of `attribute` on every element it matches in
 * the whole page (before main-content selection, so that chrome such as navigation can be read too), in document
 * order. Elements without the attribute are skipped; an invalid selector gives no values and a warning.
 */
export function extractAttributes(
  root: AnyNode | AnyNode[],
  selectors: readonly AttributeSelector[],
  warnings: WarningSink,
): AttributeValues[] {
  const attribute = (name: string) => name.toLowerCase();
  return selectors.map(({ selector, attribute: name }) => {
    const values: string[] = [];
    for (const element of selectSafe(selector, root, warnings, 'the attributes format')) {
      const value = element.attribs[attribute(name)];
      if (value !== undefined) values.push(value);
    }
    return { selector, attribute: name, values };
  });
}
