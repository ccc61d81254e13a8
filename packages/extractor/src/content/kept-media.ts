// Media elements the main content keeps for the `images` format, though they hold no text.
import { isTag, type AnyNode, type Element } from 'domhandler';

import { isEmbed } from '../dom/embeds.js';
import { imageSrcset } from '../dom/lazy-images.js';

/**
 * Elements of `DROP_TAGS` that the pruned page keeps for the `images` format, which lists a `<picture>`'s
 * `<source srcset>` candidates (an AVIF or WebP beside the `<img>` fallback) and a `<video>`'s poster (reference
 * §10.5). The markdown converter skips both, so the markdown is the same with or without them.
 */
export function keptForImages(el: Element): boolean {
  if (el.name === 'source')
    return !!imageSrcset(el.attribs) && !!el.parent && isTag(el.parent) && el.parent.name === 'picture';
  return el.name === 'video' && !!el.attribs['poster'];
}

/**
 * Elements of `DROP_TAGS` that the pruned page keeps under `markdownOptions.embeds`: an `<iframe>` with a `src`, and
 * a `<video>` or `<audio>` with their `<source>`s (the markdown writes each as a link line).
 */
export function keptForEmbeds(el: Element): boolean {
  if (isEmbed(el.name, el.attribs)) return true;
  return el.name === 'source' && !!el.parent && isTag(el.parent) && /^(video|audio)$/.test(el.parent.name);
}

/**
 * What an embed kept under `markdownOptions.embeds` holds that no format reads: the fallback a browser shows only
 * when it cannot frame or play ("Your browser does not support the video tag", a download link) and `<track>`s. The
 * converter writes the embed from its `src` and `<source>`s alone; measured, the fallback text would pull the main
 * content toward a column of players that the option does not show, so the option would change which block is the
 * main content.
 */
export function unreadInEmbed(embed: Element): AnyNode[] {
  return embed.children.filter((c) => !isTag(c) || c.name !== 'source');
}
