/** Reading values out of an office file's XML parts with regular expressions (no DOM): attributes and references. */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text with its XML references read (`R&amp;D` is `R&D`, `&#233;` is `é`). */
export function decodeXml(text: string): string {
  return text.replace(
    /&(?:#x([0-9a-f]+)|#(\d+)|(amp|lt|gt|quot|apos));/gi,
    (_m, hex?: string, dec?: string, name?: string) =>
      name ? ENTITIES[name.toLowerCase()]! : String.fromCodePoint(parseInt(hex ?? dec!, hex ? 16 : 10)),
  );
}

/** The raw value of the attribute `name` (`style:name`, `r:id`) in a start tag, or `undefined`. */
export function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}
