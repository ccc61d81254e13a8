// A `<picture>` whose `<img>` has no source of its own (Medium since 2022: `<source srcset>`s and an `<img>` with only
// its alt and size): a browser shows a `<source>`'s candidate, so the `<img>` takes that `<source>`'s `srcset`, and
// the markdown, which writes the `<img>`, shows the picture. Runs once before the main content.
import { isTag, type Element, type ParentNode } from 'domhandler';

import { imageSrcset, lacksRealSource } from './lazy-images.js';
import { parseSrcset } from './urls.js';
import { elements } from './walk.js';

/** Types every browser shows, or none named: the `<source>` a reader of any browser gets. */
const PLAIN_TYPE = /^(?:|image\/(?:jpeg|jpg|png|gif))$/i;

/** Whether a `srcset` names an image: a candidate not `#` (Apple's `#, # 2x` until a script fills it) or `data:`. */
function namesImage(srcset: string | undefined): boolean {
  return !!srcset && parseSrcset(srcset).some(({ url }) => !/^(?:#|data:|blob:)/i.test(url));
}

/**
 * The `<source>` whose candidates a browser would show: one without a `media` condition (art direction for narrow
 * screens is a crop) and of a plain type; else the first without `media`; else the first.
 */
function shownSource(sources: Element[]): Element | undefined {
  const open = sources.filter((s) => s.attribs.media === undefined);
  return open.find((s) => PLAIN_TYPE.test(s.attribs.type?.trim() ?? '')) ?? open[0] ?? sources[0];
}

/** Gives each source-less `<img>` of a `<picture>` the `srcset` of the `<source>` a browser shows; how many. */
export function fillPictureImages(root: ParentNode): number {
  let count = 0;
  for (const picture of elements(root)) {
    if (picture.name !== 'picture') continue;
    const kids = picture.children.filter(isTag);
    const img = kids.find((el) => el.name === 'img');
    if (!img || !lacksRealSource(img.attribs) || imageSrcset(img.attribs)) continue;
    const sources = kids.filter((el) => el.name === 'source' && namesImage(imageSrcset(el.attribs)));
    const source = shownSource(sources);
    if (!source) continue;
    img.attribs.srcset = imageSrcset(source.attribs)!;
    count++;
  }
  return count;
}
