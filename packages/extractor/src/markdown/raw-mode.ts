import type { Budget } from './budget.js';
import type { Capture } from './capture.js';
import type { Container } from './container.js';
import { feedEvents, type HtmlSink } from './drivers.js';
import {
  isGfmTable,
  isVoid,
  planRaw,
  RawCapture,
  serializeRaw,
  startTag,
  type AttributeFilter,
  type RawPlan,
} from './raw-html.js';
import type { Stack } from './stack.js';

/**
 * Raw-HTML mode's elements markdown cannot express (`raw-html.ts` says which): inline ones as their tags around
 * their converted content, block ones recorded to their end and replayed once through the converter.
 */
export class RawMode {
  readonly #stack: Stack;
  readonly #sink: HtmlSink;
  readonly #filter: AttributeFilter;
  readonly #budget: Budget;
  readonly #capture: (capture: Capture, done: () => void) => boolean;
  /** The recorded subtree being replayed, and the index of the start tag being replayed. */
  #plan: RawPlan | null = null;
  #planIndex = -1;

  constructor(
    stack: Stack,
    sink: HtmlSink,
    filter: AttributeFilter,
    budget: Budget,
    capture: (capture: Capture, done: () => void) => boolean,
  ) {
    this.#stack = stack;
    this.#sink = sink;
    this.#filter = filter;
    this.#budget = budget;
    this.#capture = capture;
  }

  /** An element markdown cannot express, inside a paragraph: its tags as inline HTML, its content as markdown. */
  openInline(name: string, attribs: Record<string, string>, cur: Container): boolean {
    cur.raw(startTag(name, attribs, this.#filter));
    if (isVoid(name)) return false;
    this.#stack.frames.push({ close: () => this.#stack.cur.raw(`</${name}>`) });
    return true;
  }

  /**
   * An element markdown cannot express, at block level. Outside a replay, its subtree is recorded to its end, then
   * replayed once. In the replay, an element whose content is blocks writes its tags around that content converted
   * to markdown; any other is written whole as one HTML block; a table that GFM expresses exactly is converted as
   * usual (`undefined`).
   */
  openBlock(name: string, attribs: Record<string, string>, table: boolean): boolean | undefined {
    const plan = this.#plan;
    const stack = this.#stack;
    if (!plan) {
      const capture = new RawCapture(name, attribs);
      return this.#capture(capture, () => this.#replay(planRaw(capture.events)));
    }
    const i = this.#planIndex;
    const end = plan.end[i]!;
    if (table ? !isGfmTable(plan.events, i, end) : !plan.holdsBlocks[i]) {
      stack.cur.pushBlock({ kind: 'other', text: serializeRaw(plan.events, i, end + 1, this.#filter) });
      return false;
    }
    if (table) return undefined;
    stack.cur.pushBlock({ kind: 'other', text: startTag(name, attribs, this.#filter) });
    stack.frames.push({
      close: () => {
        stack.cur.boundary();
        stack.cur.pushBlock({ kind: 'other', text: `</${name}>` });
      },
    });
    return true;
  }

  /** Feeds a recorded subtree through the converter again, its raw-HTML decisions taken from `plan`. */
  #replay(plan: RawPlan): void {
    this.#plan = plan;
    feedEvents(this.#sink, plan.events, plan.end, (i) => (this.#planIndex = i));
    this.#plan = null;
    this.#budget.check();
  }
}
