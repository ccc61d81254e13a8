import type { Budget } from './budget.js';
import { joinBlocks } from './blocks.js';
import { type Callout, calloutOf, isCalloutTitle, renderCallout } from './callouts.js';
import { Container } from './container.js';
import type { Stack } from './stack.js';

interface OpenCallout {
  callout: Callout;
  body: Container;
  title: string | undefined;
}

/** Callouts as they stream in (`callouts.ts` finds them): the title and content collected, written at the end. */
export class CalloutFrames {
  readonly #stack: Stack;
  readonly #budget: Budget;
  readonly #open: OpenCallout[] = [];

  constructor(stack: Stack, budget: Budget) {
    this.#stack = stack;
    this.#budget = budget;
  }

  /** Opens a callout or its title element; undefined when the element is neither (or is nested too deep). */
  open(name: string, attribs: Record<string, string>, cur: Container, maxNesting: number): boolean | undefined {
    const stack = this.#stack;
    // (not `#open[length - 1]` on an empty array: `[-1]` is a slow named-property lookup, and most elements come here)
    const inner = this.#open.length > 0 ? this.#open[this.#open.length - 1] : undefined;
    if (inner !== undefined && inner.body === cur && inner.title === undefined && isCalloutTitle(name, attribs.class)) {
      if (cur.hasInline || cur.blocks.length > 0) return undefined;
      return this.#openTitle(inner);
    }
    if (cur.inlineOnly || stack.nesting >= maxNesting) return undefined;
    const callout = calloutOf(name, attribs);
    if (callout === undefined) return undefined;
    cur.boundary();
    const open: OpenCallout = { callout, body: new Container('quote'), title: undefined };
    this.#open.push(open);
    stack.push(open.body);
    stack.nesting++;
    stack.frames.push({
      close: () => {
        stack.pop();
        stack.nesting--;
        this.#open.pop();
        const text = renderCallout(callout, open.title ?? '', joinBlocks(open.body.takeBlocks(), false));
        if (text !== '') stack.cur.pushBlock({ kind: 'quote', text });
        this.#budget.check();
      },
    });
    return true;
  }

  #openTitle(open: OpenCallout): boolean {
    const stack = this.#stack;
    const title = new Container('heading');
    stack.push(title);
    stack.frames.push({
      close: () => {
        stack.pop();
        open.title = title.finishInline().trim();
      },
    });
    return true;
  }
}
