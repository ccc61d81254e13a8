// FAQ accordions put each question in the button that opens its answer: that button is the question, not a control.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';

/** What may close a question after its question mark: quotes and brackets ("Is it “fine?”", "(Why?)"). */
const CLOSERS = new Set(['"', "'", '”', '’', ')', ']']);

/**
 * Whether a `<button>` is the question of a FAQ entry: a disclosure toggle (`aria-expanded` or `aria-controls`, the
 * ARIA accordion pattern) whose text is a question: its last sentence mark is a question mark (closing quotes and
 * brackets aside). Other buttons (Add to cart, Show more, Menu) are calls to action.
 */
export function isQuestionToggle(button: Element): boolean {
  const a = button.attribs;
  if (a['aria-expanded'] === undefined && a['aria-controls'] === undefined) return false;
  return endsWithQuestionMark(button);
}

/**
 * Whether the text of `el`, trimmed, ends with a question mark and then only closing quotes and brackets (as
 * `/\?["'”’)\]]*$/` on its text). Reads the text backwards from its end and stops at the first character that
 * decides, so nested toggles (a question in a toggle in a toggle) do not each read the whole text.
 */
function endsWithQuestionMark(el: Element): boolean {
  // before the last non-space character (the text's trailing space, which trimming drops), then in its closers
  let trailing = true;
  // backwards through the text in document order, by the nodes' own links: nothing read before it decides
  let node: AnyNode | null = el.lastChild;
  while (node) {
    if (isTag(node) && node.lastChild) {
      node = node.lastChild;
      continue;
    }
    if (isText(node)) {
      const data = node.data;
      for (let i = data.length - 1; i >= 0; i--) {
        const ch = data[i]!;
        if (trailing && /\s/.test(ch)) continue;
        trailing = false;
        if (ch === '?') return true;
        if (!CLOSERS.has(ch)) return false;
      }
    }
    // the previous node, or the previous one of the nearest ancestor (inside `el`) that has one
    while (node && !node.prev) node = node.parent === el ? null : node.parent;
    node = node ? node.prev : null;
  }
  return false;
}
