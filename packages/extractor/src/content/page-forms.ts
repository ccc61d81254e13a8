// The forms of a page that tell what a widget is (a sign-up form, a poll), read before the prune step drops inputs.
import type { Element, ParentNode } from 'domhandler';

import { findPollForms } from './polls.js';
import { findSignupForms } from './signup-widgets.js';

/** A page's sign-up forms (`signup-widgets.ts`) and poll forms (`polls.ts`). */
export interface PageForms {
  signups: ReadonlySet<Element>;
  polls: ReadonlySet<Element>;
}

export const NO_FORMS: PageForms = { signups: new Set(), polls: new Set() };

export function findPageForms(root: ParentNode): PageForms {
  return { signups: findSignupForms(root), polls: findPollForms(root) };
}
