// The forms of a page that tell what a widget is (a sign-up form, a poll, an option picker), read before the prune
// step drops inputs.
import type { Element, ParentNode } from 'domhandler';

import { findFormControls } from './form-controls.js';
import { findOptionPickers } from './option-pickers.js';
import { findPollForms } from './polls.js';
import { findSignupForms } from './signup-widgets.js';

/** A page's sign-up forms (`signup-widgets.ts`), poll forms (`polls.ts`) and option pickers (`option-pickers.ts`). */
export interface PageForms {
  signups: ReadonlySet<Element>;
  polls: ReadonlySet<Element>;
  pickers: ReadonlyMap<Element, number>;
}

export const NO_FORMS: PageForms = { signups: new Set(), polls: new Set(), pickers: new Map() };

export function findPageForms(root: ParentNode): PageForms {
  const controls = findFormControls(root);
  return {
    signups: findSignupForms(root),
    polls: findPollForms(controls.radios),
    pickers: findOptionPickers(controls),
  };
}
