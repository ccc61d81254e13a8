// The controls of a page that tell a widget's kind (a poll's radio buttons, a picker's number field), read in one walk
// before the prune step drops inputs.
import type { Element, ParentNode } from 'domhandler';

import { elements } from '../dom/walk.js';

/** A page's radio buttons by their name, and its other option controls. */
export interface FormControls {
  /** Radio buttons (`<input type="radio">`) by their `name`, in document order. */
  radios: Map<string, Element[]>;
  /** Number fields: `<input type="number">` and `role="spinbutton"`. */
  numbers: Element[];
  /** `role="radiogroup"` elements. */
  radioGroups: Element[];
}

/** The option controls under `root`, in one walk. */
export function findFormControls(root: ParentNode): FormControls {
  const out: FormControls = { radios: new Map(), numbers: [], radioGroups: [] };
  for (const el of elements(root)) {
    const role = el.attribs['role'];
    if (role === 'radiogroup') out.radioGroups.push(el);
    else if (role === 'spinbutton') out.numbers.push(el);
    else if (el.name === 'input') {
      const type = (el.attribs['type'] ?? '').toLowerCase();
      if (type === 'number') out.numbers.push(el);
      else if (type === 'radio') {
        const name = el.attribs['name'] ?? '';
        const group = out.radios.get(name);
        if (group) group.push(el);
        else out.radios.set(name, [el]);
      }
    }
  }
  return out;
}
