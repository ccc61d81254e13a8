import { type Block, Container } from './container.js';
import type { Stack } from './stack.js';

/** A tab set's labels waiting for their panels. */
interface TabGroup {
  /** The group ends when the frames fall to this depth (the labels' container's parent has closed). */
  end: number;
  labels: string[];
  /** Labels by the panel `id` they name (`aria-controls`, a `#fragment`) and by their own `id`. */
  byPanel: Map<string, string>;
  byId: Map<string, string>;
  /** The depth of the panel being converted: nothing inside it is another panel of this set. */
  panel: number;
}

/**
 * The panels of a tab set's other markup than ARIA's `role="tabpanel"`: MkDocs Material's `tabbed-block`, and, while
 * labels wait, a code block's language wrapper (VitePress's code groups).
 */
const PANEL_CLASS = /(?:^|\s)tabbed-block(?:\s|$)/;
/**
 * MkDocs Material's older tabs put each panel, `tabbed-content`, right after its label; the newer ones one
 * `tabbed-content` around all the `tabbed-block`s, after all the labels: it is a panel when one label waits.
 */
const SINGLE_PANEL_CLASS = /(?:^|\s)tabbed-content(?:\s|$)/;
const CODE_WRAPPER = /(?:^|\s)language-/;
/** Docusaurus's tabs name no panel (`<li role="tab" class="tabs__item">`): their panels follow, in order. */
const DOCUSAURUS_TAB = /(?:^|\s)tabs__item(?:\s|$)/;

const IMAGES = /!\[[^\]]*\]\([^)]*\)/g;
const WORDS = /[\p{L}\p{N}]/u;
/** A label's longest text: a tab's name, not a sentence. */
const MAX_LABEL = 80;

/** The label a tab element's content is: one short line of words (or a heading's), else undefined. */
function labelText(blocks: readonly Block[]): string | undefined {
  if (blocks.length !== 1) return undefined;
  const block = blocks[0]!;
  if (block.kind !== 'p' && block.kind !== 'heading') return undefined;
  const text = block.kind === 'heading' ? block.text.replace(/^#+ /, '') : block.text;
  if (text.length > MAX_LABEL || text.includes('\n')) return undefined;
  // words, not only a picture (a slider's thumbnails are `role="tab"` too)
  return WORDS.test(text.replace(IMAGES, '')) ? text : undefined;
}

/**
 * Tabs as they stream in: each label (`role="tab"`; a `<label for>` of a radio button, as MkDocs Material and
 * VitePress write them) that is one short line is taken out of the text and written in bold above its panel, found
 * by `aria-controls`, `aria-labelledby`, else by order; a tab element holding more is converted as it is.
 */
export class TabFrames {
  readonly #stack: Stack;
  readonly #groups: TabGroup[] = [];
  readonly #radios = new Set<string>();
  /** The depths of the open `role="tablist"` elements. */
  readonly #tablists: number[] = [];

  readonly #keep: (name: string, blocks: Block[], loose: boolean, cur: Container) => void;

  /** @param keep writes a tab element's blocks where it stands when they are more than a label */
  constructor(stack: Stack, keep: (name: string, blocks: Block[], loose: boolean, cur: Container) => void) {
    this.#stack = stack;
    this.#keep = keep;
  }

  /**
   * A tab label (captured; true), a panel (its label written above it; undefined, so that it opens as usual), or
   * neither (undefined).
   */
  open(name: string, attribs: Record<string, string>, cur: Container): boolean | undefined {
    if (name === 'input') {
      if (attribs.id !== undefined && attribs.type?.toLowerCase() === 'radio') this.#radios.add(attribs.id);
      return undefined;
    }
    const role = attribs.role;
    if (role === 'tablist') {
      this.#tablists.push(this.#stack.frames.length);
      return undefined;
    }
    if (role === 'tab') {
      const href = attribs.href;
      // a tab that leads to another page is navigation, left as a link
      if (name === 'a' && href !== undefined && !href.startsWith('#')) return undefined;
      const panel = attribs['aria-controls'] ?? (href?.startsWith('#') ? href.slice(1) : undefined);
      // a tab that names no panel and that no panel can name is left as it is: its panels may not be in the page
      if (panel === undefined && attribs.id === undefined && !DOCUSAURUS_TAB.test(attribs.class ?? ''))
        return undefined;
      return this.#openLabel(name, cur, panel, attribs.id);
    }
    if (name === 'label') {
      const target = attribs.for;
      return target !== undefined && this.#radios.has(target)
        ? this.#openLabel(name, cur, undefined, undefined)
        : undefined;
    }
    const groups = this.#groups;
    if (groups.length === 0) return undefined;
    const group = groups[groups.length - 1]!;
    if (group.labels.length === 0 || group.panel >= 0) return undefined;
    const cls = attribs.class;
    if (
      role === 'tabpanel' ||
      (cls !== undefined &&
        (PANEL_CLASS.test(cls) ||
          CODE_WRAPPER.test(cls) ||
          (group.labels.length === 1 && SINGLE_PANEL_CLASS.test(cls))))
    ) {
      group.panel = this.#stack.frames.length;
      const label = this.#take(group, attribs.id, attribs['aria-labelledby']);
      if (label !== '') {
        cur.boundary();
        cur.pushBlock({ kind: 'p', text: `**${label}**` });
      }
    }
    return undefined;
  }

  /** Called after each end tag: tab sets whose element has ended are forgotten. */
  closed(depth: number): void {
    const tablists = this.#tablists;
    while (tablists.length > 0 && depth <= tablists[tablists.length - 1]!) tablists.pop();
    const groups = this.#groups;
    while (groups.length > 0 && depth <= groups[groups.length - 1]!.end) groups.pop();
    // (a read past an empty array's end, `groups[-1]`, is a slow named-property lookup: every end tag comes here)
    if (groups.length > 0 && depth <= groups[groups.length - 1]!.panel) groups[groups.length - 1]!.panel = -1;
  }

  #openLabel(name: string, cur: Container, panel: string | undefined, id: string | undefined): boolean {
    const stack = this.#stack;
    // the set's element: the tab list's parent, else the label's container's parent
    const tablists = this.#tablists;
    const end = tablists.length > 0 ? tablists[tablists.length - 1]! - 1 : stack.frames.length - 2;
    let group = this.#groups.length > 0 ? this.#groups[this.#groups.length - 1] : undefined;
    if (group === undefined || group.end !== end) {
      group = { end, labels: [], byPanel: new Map(), byId: new Map(), panel: -1 };
      this.#groups.push(group);
    }
    const owner = group;
    cur.boundary();
    const label = new Container('quote');
    stack.push(label);
    stack.frames.push({
      close: () => {
        stack.pop();
        const blocks = label.takeBlocks();
        const text = labelText(blocks);
        if (text === undefined) {
          // more than a label (an accordion's header and panel in one `role="tab"`, a slide): kept as it is
          this.#keep(name, blocks, label.sawParagraph, stack.cur);
          return;
        }
        owner.labels.push(text);
        if (panel) owner.byPanel.set(panel, text);
        if (id) owner.byId.set(id, text);
      },
    });
    return true;
  }

  /** The label of a panel: by its `id`, by its `aria-labelledby`, else the next one waiting. */
  #take(group: TabGroup, id: string | undefined, labelledBy: string | undefined): string {
    const label =
      (id !== undefined ? group.byPanel.get(id) : undefined) ??
      (labelledBy !== undefined ? group.byId.get(labelledBy) : undefined) ??
      group.labels[0]!;
    const at = group.labels.indexOf(label);
    if (at >= 0) group.labels.splice(at, 1);
    return label;
  }
}
