import { isTag, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';

/** Every element under `root` in document order, without recursion (deep trees must not overflow the stack). */
export function* elements(root: ParentNode): Generator<Element> {
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    yield node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}

/** Whether `ancestor` is a proper ancestor of `node`. */
export function contains(ancestor: ParentNode, node: AnyNode): boolean {
  for (let p = node.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

/** Detaches a node from its parent. */
export function detach(node: AnyNode): void {
  const parent = node.parent;
  if (!parent) return;
  const index = parent.children.indexOf(node);
  if (index >= 0) parent.children.splice(index, 1);
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
  node.parent = null;
  node.prev = null;
  node.next = null;
}

/** Detaches many nodes at once; cheaper than one `detach` per node when a parent loses many children. */
export function detachAll(nodes: Iterable<AnyNode>): void {
  const byParent = new Map<ParentNode, Set<AnyNode>>();
  for (const node of nodes) {
    const parent = node.parent;
    if (!parent) continue;
    let set = byParent.get(parent);
    if (!set) byParent.set(parent, (set = new Set()));
    set.add(node);
  }
  for (const [parent, gone] of byParent) {
    const kept = parent.children.filter((c) => !gone.has(c));
    for (const node of gone) {
      node.parent = null;
      node.prev = null;
      node.next = null;
    }
    relink(parent, kept);
  }
}

/** Replaces the children of `parent`, fixing sibling and parent links. */
export function relink(parent: ParentNode, children: AnyNode[]): void {
  parent.children = children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    child.parent = parent;
    child.prev = children[i - 1] ?? null;
    child.next = children[i + 1] ?? null;
  }
}

/** The text of a subtree with its whitespace runs made one space, trimmed (for short blocks: it builds a string). */
export function textOf(el: Element): string {
  let out = '';
  const stack: AnyNode[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (isText(n)) out += n.data;
    else if (isTag(n)) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * The element right before `node` among its siblings, with only comments and whitespace between; null when there is
 * none or text stands between (`<p>Lead-in:</p>\n<ul>` has one, `<p>Lead-in:</p> and <ul>` has none).
 */
export function previousElement(node: AnyNode): Element | null {
  for (let prev = node.prev; prev; prev = prev.prev) {
    if (isTag(prev)) return prev;
    if (isText(prev) && prev.data.trim() !== '') return null;
  }
  return null;
}

/**
 * The elements below `root` (`root` itself left out) that are or hold an element named in `names`: each is marked
 * once, however many such elements it holds, so the whole set costs one walk.
 */
export function holdersOf(root: ParentNode, names: ReadonlySet<string>): Set<ParentNode> {
  const out = new Set<ParentNode>();
  for (const el of elements(root)) {
    if (!names.has(el.name)) continue;
    for (let p: ParentNode | null = el; p && p !== root && !out.has(p); p = p.parent) out.add(p);
  }
  return out;
}

/** Whether any text under `root` is more than whitespace. */
export function hasText(root: ParentNode): boolean {
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (isText(node) && /\S/.test(node.data)) return true;
    if (isTag(node)) for (const c of node.children) stack.push(c);
  }
  return false;
}
