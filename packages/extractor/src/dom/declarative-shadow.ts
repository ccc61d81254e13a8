// Declarative shadow DOM: a server-rendered web component sends its shadow tree as `<template shadowrootmode="open">`
// inside its host element, and the browser attaches it as the host's shadow root at parse time, with no script. The
// page shows the shadow tree, the host's own children placed into its `<slot>`s. Read as plain HTML, the template is
// inert and the component's text is lost (markdown skips templates); this renders it as the browser shows it, as the
// browser engine's flattening of open shadow roots does for a rendered page.
import { isTag, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';

/** Slots looked after on a page; past them, later slots keep their fallback content. */
const MAX_SLOTS = 10_000;

const isShadowTemplate = (el: Element) =>
  el.name === 'template' && (el.attribs['shadowrootmode'] !== undefined || el.attribs['shadowroot'] !== undefined);

/**
 * Collects the shadow-root templates and their slots as the parser creates elements, then puts each shadow tree in
 * place of its host's children, the host's children placed into the slots (by `slot` name; text and unnamed elements
 * into the unnamed slot; a slot nothing is assigned to shows its own content). A host's children assigned to no slot
 * are not shown, as in a browser. Only a host's first shadow-root template is its shadow root.
 */
export class DeclarativeShadowRoots {
  /** The shadow-root templates, in document order. */
  readonly #templates: Element[] = [];
  /** Each slot's shadow tree: the nearest shadow-root template around it when it was parsed. */
  readonly #slots = new Map<Element, Element[]>();
  #slotCount = 0;

  /** Notes `el` when it is a shadow-root template or a slot in one; called for every element, in document order. */
  observe(el: Element): void {
    if (isShadowTemplate(el)) {
      this.#templates.push(el);
      this.#slots.set(el, []);
    } else if (el.name === 'slot' && this.#templates.length > 0 && this.#slotCount < MAX_SLOTS) {
      for (let p = el.parent; p; p = p.parent) {
        if (isTag(p) && this.#slots.has(p)) {
          this.#slots.get(p)!.push(el);
          this.#slotCount++;
          return;
        }
      }
    }
  }

  /** Renders every shadow tree into its host, innermost first, once the whole tree is built. Returns how many. */
  place(): number {
    const hosts = new Set<ParentNode>();
    let placed = 0;
    for (let i = this.#templates.length - 1; i >= 0; i--) {
      const template = this.#templates[i]!;
      const host = template.parent;
      if (!host || !isTag(host)) continue;
      // the host's first shadow-root template wins; a later one stays an inert template
      if (host.children.find((c) => isTag(c) && isShadowTemplate(c)) !== template) continue;
      if (hosts.has(host)) continue;
      hosts.add(host);
      this.#render(host, template);
      placed++;
    }
    return placed;
  }

  #render(host: Element, template: Element): void {
    // the host's children by the slot they go to; the first slot of a name takes them all
    const bySlot = new Map<string, AnyNode[]>();
    for (const node of host.children) {
      const name = node === template ? undefined : slotOf(node);
      if (name === undefined) {
        node.parent = node.prev = node.next = null;
        continue;
      }
      const nodes = bySlot.get(name);
      if (nodes) nodes.push(node);
      else bySlot.set(name, [node]);
    }
    for (const slot of this.#slots.get(template)!) {
      const name = slot.attribs['name'] ?? '';
      const assigned = bySlot.get(name);
      bySlot.delete(name);
      const parent = slot.parent;
      const at = parent ? parent.children.indexOf(slot) : -1;
      if (!parent || at < 0) continue;
      const content = assigned ?? slot.children;
      setChildren(parent, [...parent.children.slice(0, at), ...content, ...parent.children.slice(at + 1)]);
      slot.parent = slot.prev = slot.next = null;
    }
    // children assigned to no slot are not shown
    for (const nodes of bySlot.values()) for (const node of nodes) node.parent = node.prev = node.next = null;
    setChildren(host, template.children);
    template.children = [];
    template.parent = template.prev = template.next = null;
  }
}

/** The slot a host's child goes to: an element's `slot` attribute, else the unnamed slot (text too). */
function slotOf(node: AnyNode): string | undefined {
  if (isTag(node)) return node.attribs['slot'] ?? '';
  return isText(node) ? '' : undefined;
}

function setChildren(parent: ParentNode, children: AnyNode[]): void {
  let prev: AnyNode | null = null;
  for (const node of children) {
    node.parent = parent;
    node.prev = prev;
    if (prev) prev.next = node;
    prev = node;
  }
  if (prev) prev.next = null;
  parent.children = children;
}
