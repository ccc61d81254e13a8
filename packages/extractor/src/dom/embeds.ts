/**
 * Whether `markdownOptions.embeds` writes the element as a link line: an `<iframe>` with a `src` (a `srcdoc` is its
 * own content), a `<video>` or an `<audio>`. The main content keeps what this names (`content/kept-media.ts`), and
 * the markdown converter writes it (`markdown/embeds.ts`).
 */
export function isEmbed(name: string, attribs: Record<string, string>): boolean {
  if (name === 'iframe') return !!attribs['src']?.trim() && attribs['srcdoc'] === undefined;
  return name === 'video' || name === 'audio';
}
