/**
 * While a capture is active (a `<pre>`, an inline `<code>`, a `<math>`), every event inside its element goes to
 * it instead of the converter.
 */
export interface Capture {
  /** A start tag inside the captured element; false skips the element's subtree. */
  open(name: string, attribs: Record<string, string>): boolean;
  text(data: string): void;
  /** An end tag; true when it is the captured element's own, which ends the capture. */
  close(name: string): boolean;
}
