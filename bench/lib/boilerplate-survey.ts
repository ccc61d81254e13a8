// Boilerplate kept (issue 42, thirteenth pass): for every WCXB dev page whose output still holds one of the page's
// reviewed boilerplate snippets (score-wcxb.mjs's "without" check), which snippet, where it sits in the output (before
// the content, inside it, after it) and the element that carried it: its tag, role and class words, depth below the
// chosen container, link share, how often its shape repeats in the output, the landmark or furniture words around
// it. Run in process with `extractPage` (markdown, main content: what `scrape()` runs) over the dev split (WCXB v1.0
// by Murrough Foley, CC-BY-4.0, read from the shared datasets folder, never copied); the element is looked for in
// `findMainContent`'s output of the same page.
//
//   pnpm exec node bench/lib/boilerplate-survey.ts [--dist DIR] [--json FILE] [--list]
//   --list prints every kept snippet with its element; the default prints the shape table per type and per fold.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { FOLDS, foldOf, PAGE_TYPES } from './folds.ts';
import { argValue, datasets, dist, loadScorer } from './rule-ablation.ts';
import { loadWcxbPages } from './wcxb.ts';

const args = process.argv.slice(2);

/** The few domhandler fields the survey reads. */
interface DomNode {
  type: string;
  data?: string;
  name?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
  parent?: DomNode | null;
}
interface Extractor {
  extractPage(html: string, o: object): { markdown?: string };
  parseHtml(html: string): DomNode;
  findMainContent(
    doc: DomNode,
    o: { url?: string; explain?: boolean },
  ): { document: DomNode; source: string; keptBy?: Record<string, string> };
}

const INLINE = new Set(
  'a abbr b bdi bdo big cite code data del dfn em font i ins kbd mark q s samp small span strike strong sub sup time tt u var label'.split(
    ' ',
  ),
);

/** Visible text under `n`, and of that the text inside links. */
function texts(n: DomNode, inLink = false, out = { text: '', link: 0 }): { text: string; link: number } {
  if (n.type === 'text') {
    out.text += n.data ?? '';
    if (inLink) out.link += (n.data ?? '').replace(/\s+/g, '').length;
  } else if (n.type === 'tag' || n.type === 'root') {
    const link = inLink || n.name === 'a';
    for (const c of n.children ?? []) texts(c, link, out);
    if (n.type === 'tag' && !INLINE.has(n.name!)) out.text += ' ';
  }
  return out;
}
const squeeze = (s: string): string => s.toLowerCase().replace(/\s+/g, '');

/** The deepest elements whose text holds `needle` (whitespace and case ignored), one for each place it occurs. */
function carriers(root: DomNode, needle: string): DomNode[] {
  const found: DomNode[] = [];
  const visit = (n: DomNode): void => {
    let inChild = false;
    for (const c of n.children ?? []) {
      if (c.type !== 'tag' || !squeeze(texts(c).text).includes(needle)) continue;
      inChild = true;
      visit(c);
    }
    if (!inChild && n !== root) found.push(n);
  };
  visit(root);
  return found;
}

/** An element's signature: tag and class words (digits and hashes stripped), for the repetition count. */
function signature(n: DomNode): string {
  const cls = (n.attribs?.['class'] ?? '')
    .split(/\s+/)
    .filter((w) => w && !/\d{2,}|^css-|^sc-/.test(w))
    .sort()
    .join('.');
  return `${n.name}${cls ? `.${cls}` : ''}`;
}

function label(n: DomNode): string {
  const a = n.attribs ?? {};
  const words = [a['class'] ?? '', a['id'] ? `#${a['id']}` : '', a['role'] ? `[${a['role']}]` : '']
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `${n.name}${words ? `(${words.slice(0, 60)})` : ''}`;
}

/** Landmark tags and roles, and class or id words of furniture, on the element or its ancestors inside the output. */
const LANDMARK_TAGS = new Set(['header', 'footer', 'nav', 'aside', 'form', 'figure', 'figcaption', 'address']);
const LANDMARK_ROLES = /banner|contentinfo|navigation|complementary|search|dialog|alert/;
const FURNITURE_WORDS =
  /breadcrumb|share|social|related|recommend|footer|header|nav|menu|cookie|consent|newsletter|subscribe|signup|meta|tags?\b|author|byline|promo|banner|sidebar|widget|rating|review|price|badge|card|teaser|cta|button|btn|disclaimer|legal|copyright/i;

export interface KeptSnippet {
  id: string;
  fold: number;
  type: string;
  host: string;
  snippet: string;
  /** Snippets of the page, and how many the output keeps. */
  of: number;
  where: 'before' | 'inside' | 'after' | 'no-content';
  /** Position of the snippet in the output's text, 0 (start) to 1 (end). */
  at: number;
  keptBy: string;
  source: string;
  /** Places of the output that hold it. */
  places: number;
  /** The page's reference text holds it too (case ignored): an output that is the reference would keep it. */
  inReference: boolean;
  block: string;
  path: string[];
  depth: number;
  blockChars: number;
  /** Share of the carrying block's words that the reference holds: high, the snippet's words sit in the content. */
  blockInReference: number;
  snippetShare: number;
  linkShare: number;
  repeats: number;
  landmarks: string[];
  h1: 'none' | 'before-h1' | 'after-h1';
}

const tokens = (s: string): string[] => s.toLowerCase().match(/\w+/g) ?? [];

/** Share of the words of `text` that the reference holds (as a bag: each reference word counted once). */
function inReference(text: string, reference: ReadonlyMap<string, number>): number {
  const left = new Map(reference);
  const words = tokens(text);
  let hit = 0;
  for (const w of words) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      hit++;
      left.set(w, n - 1);
    }
  }
  return words.length ? hit / words.length : 0;
}

/** Where `pos` of `text` sits against the lines whose words are the reference's (the content's span). */
function placeOf(text: string, pos: number, reference: Map<string, number>): KeptSnippet['where'] {
  let offset = 0;
  let first = -1;
  let last = -1;
  let at = -1;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    if (pos >= start && pos < offset) at = start;
    const t = tokens(line);
    if (t.length < 4) continue;
    const inRef = t.filter((w) => reference.has(w)).length / t.length;
    if (inRef < 0.8) continue;
    if (first < 0) first = start;
    last = start;
  }
  if (first < 0) return 'no-content';
  if (at < first) return 'before';
  if (at > last) return 'after';
  return 'inside';
}

function survey(
  extractor: Extractor,
  scorer: Awaited<ReturnType<typeof loadScorer>>,
): { kept: KeptSnippet[]; pages: number; unlisted: number } {
  const root = path.join(datasets, 'wcxb-dev');
  const pages = loadWcxbPages(root);
  const gt = scorer.loadWcxbGroundTruth(root);
  const kept: KeptSnippet[] = [];
  // pages without boilerplate snippets: the scorer counts them as keeping all (1.0)
  let unlisted = 0;
  for (const page of pages) {
    const g = gt[page.id]!;
    if (!g.without.length) {
      unlisted++;
      continue;
    }
    const md = extractor.extractPage(page.html, {
      url: page.url,
      onlyMainContent: true,
      formats: { markdown: true },
    }).markdown;
    const text = scorer.stripMarkdown(md ?? '');
    const lower = text.toLowerCase();
    const hits = g.without.filter((s) => lower.includes(s.toLowerCase()));
    if (!hits.length) continue;
    const found = extractor.findMainContent(extractor.parseHtml(page.html), { url: page.url, explain: true });
    const out = found.document;
    const body = out.children?.find((c) => c.name === 'body') ?? out;
    const reference = new Map<string, number>();
    for (const w of tokens(g.main_content)) reference.set(w, (reference.get(w) ?? 0) + 1);
    const sigs = new Map<string, number>();
    const all: DomNode[] = [];
    const collect = (n: DomNode): void => {
      for (const c of n.children ?? []) {
        if (c.type !== 'tag') continue;
        all.push(c);
        sigs.set(signature(c), (sigs.get(signature(c)) ?? 0) + 1);
        collect(c);
      }
    };
    collect(body);
    const h1 = all.find((n) => n.name === 'h1');
    for (const s of hits) {
      const pos = lower.indexOf(s.toLowerCase());
      const needle = squeeze(s);
      // where the snippet occurs as a block of its own, rather than as words of a longer text
      const share = (n: DomNode): number => needle.length / Math.max(1, squeeze(texts(n).text).length);
      const climb = (n: DomNode): DomNode => {
        let e = n;
        while (INLINE.has(e.name!) && e.parent && e.parent !== body) e = e.parent;
        return e;
      };
      const places = carriers(body, needle).map(climb);
      const el = places.sort((a, b) => share(b) - share(a))[0] ?? null;
      const keptBy = Object.entries(found.keptBy ?? {}).find(([, t]) => squeeze(t).includes(needle))?.[0] ?? '?';
      const base = {
        id: page.id,
        fold: foldOf(page),
        type: page.type,
        host: new URL(page.url).hostname,
        snippet: s,
        of: g.without.length,
        where: placeOf(text, pos, reference),
        at: text.length ? pos / text.length : 0,
        keptBy,
        source: found.source,
        places: places.length,
        inReference: g.main_content.toLowerCase().includes(s.toLowerCase()),
      };
      if (!el) {
        kept.push({
          ...base,
          block: '(not found in the DOM)',
          path: [],
          depth: 0,
          blockChars: 0,
          blockInReference: 0,
          snippetShare: 0,
          linkShare: 0,
          repeats: 0,
          landmarks: [],
          h1: 'none',
        });
        continue;
      }
      const trail: DomNode[] = [];
      for (let p: DomNode | null | undefined = el; p && p !== body; p = p.parent) trail.push(p);
      const t = texts(el);
      const chars = t.text.replace(/\s+/g, '').length;
      // the shape repeats when the element or one of its ancestors has siblings of its signature
      let repeats = 1;
      for (const p of trail) {
        const sib = (p.parent?.children ?? []).filter((c) => c.type === 'tag' && signature(c) === signature(p)).length;
        if (sib >= 2) {
          repeats = sib;
          break;
        }
      }
      const landmarks: string[] = [];
      for (const p of trail) {
        if (LANDMARK_TAGS.has(p.name!)) landmarks.push(p.name!);
        const role = p.attribs?.['role'] ?? '';
        if (LANDMARK_ROLES.test(role)) landmarks.push(`[${role}]`);
        const w = FURNITURE_WORDS.exec(`${p.attribs?.['class'] ?? ''} ${p.attribs?.['id'] ?? ''}`);
        if (w) landmarks.push(w[0].toLowerCase());
      }
      let h1Place: KeptSnippet['h1'] = 'none';
      if (h1) h1Place = all.indexOf(el) < all.indexOf(h1) && !trail.includes(h1) ? 'before-h1' : 'after-h1';
      kept.push({
        ...base,
        block: label(el),
        path: trail.slice(1, 6).map(label),
        depth: trail.length,
        blockChars: chars,
        snippetShare: chars ? Math.min(1, needle.length / chars) : 0,
        blockInReference: inReference(t.text, reference),
        linkShare: chars ? t.link / chars : 0,
        repeats,
        landmarks: [...new Set(landmarks)],
        h1: h1Place,
      });
    }
  }
  return { kept, pages: pages.length, unlisted };
}

/**
 * The general shape of a kept snippet, for the survey's table. The words here only label the survey's groups; no rule
 * reads them.
 */
export function shapeOf(k: KeptSnippet): string {
  const s = k.snippet;
  const heading = /^h[1-6]/.test(k.block) || /head|title/i.test(k.block.split('(')[1] ?? '');
  if (k.blockChars >= 100 && k.snippetShare < 0.25)
    return k.blockInReference >= 0.8
      ? 'words inside a text of the content'
      : 'words inside a longer text outside the reference';
  if (k.linkShare >= 0.7) return 'menu or list of links';
  if (/\b(19|20)\d\d\b|^(by|written by|posted|published)\b|writer|editor/i.test(s))
    return 'date, byline or author line';
  if (
    (k.type === 'product' || k.type === 'collection') &&
    /\$|deliver|ship|return|price|save|financ|interest|cart|assembly|review|engrav|essentials/i.test(s)
  )
    return 'shop line (price, delivery, offer)';
  if (/subscri|follow|donat|support|copyright|©|disclos|affiliate|@|newsletter|sponsor|comment/i.test(s))
    return 'appeal, disclosure or small print';
  if (heading) return 'heading of a promo or call-to-action section';
  if (s.length <= 60) return 'short line: button, label or call to action';
  return 'other';
}

const points = (ks: readonly KeptSnippet[], pages: number): number =>
  (100 * ks.reduce((t, k) => t + 1 / k.of, 0)) / pages;

/** The survey as a markdown table: per shape, snippets and pages, their weight in boilerplate kept, per type and fold. */
function shapeTable(kept: readonly KeptSnippet[], pages: number): string {
  const shapes = [...new Set(kept.map(shapeOf))];
  const byShape = (s: string): KeptSnippet[] => kept.filter((k) => shapeOf(k) === s);
  shapes.sort((a, b) => points(byShape(b), pages) - points(byShape(a), pages));
  const lines = [
    `| shape | snippets | pages | points | before / inside / after | ${PAGE_TYPES.join(' | ')} | ${Array.from({ length: FOLDS }, (_, f) => `f${f}`).join(' | ')} |`,
    `| --- | ---: | ---: | ---: | :-: | ${PAGE_TYPES.map(() => '---:').join(' | ')} | ${Array.from({ length: FOLDS }, () => '---:').join(' | ')} |`,
  ];
  for (const s of [...shapes, 'all']) {
    const ks = s === 'all' ? kept : byShape(s);
    const where = ['before', 'inside', 'after'].map((w) => ks.filter((k) => k.where === w).length).join(' / ');
    const perType = PAGE_TYPES.map((t) => ks.filter((k) => k.type === t).length || '');
    const perFold = Array.from({ length: FOLDS }, (_, f) => ks.filter((k) => k.fold === f).length || '');
    lines.push(
      `| ${s} | ${ks.length} | ${new Set(ks.map((k) => k.id)).size} | ${points(ks, pages).toFixed(2)} | ${where} | ${perType.join(' | ')} | ${perFold.join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const extractor = (await import(pathToFileURL(path.join(dist, 'index.js')).href)) as Extractor;
  const scorer = await loadScorer();
  const { kept, pages, unlisted } = survey(extractor, scorer);
  const json = argValue('--json');
  if (json) fs.writeFileSync(json, `${JSON.stringify(kept, null, 1)}\n`);
  if (args.includes('--list')) {
    for (const k of kept) {
      console.log(
        `${k.id} f${k.fold} ${k.type} ${k.host} [${k.where} ${k.at.toFixed(2)} ${k.h1} ${k.keptBy}/${k.source}] "${k.snippet}" (${shapeOf(k)})\n    ${k.block} chars ${k.blockChars} in-reference ${k.blockInReference.toFixed(2)} share ${k.snippetShare.toFixed(2)} links ${k.linkShare.toFixed(2)} rep ${k.repeats} places ${k.places} depth ${k.depth} {${k.landmarks.join(',')}}\n    < ${k.path.join(' < ')}`,
      );
    }
  }
  console.log(
    `${kept.length} snippets kept on ${new Set(kept.map((k) => k.id)).size} of ${pages} pages (points: their share of boilerplate kept over all pages)\n`,
  );
  console.log(shapeTable(kept, pages));
  const inRef = kept.filter((k) => k.inReference);
  console.log(
    `\n${unlisted} pages list no boilerplate snippet: the scorer counts each as all kept (${((100 * unlisted) / pages).toFixed(2)} points)`,
  );
  console.log(
    `${inRef.length} kept snippets are in the page's reference text too (${points(inRef, pages).toFixed(2)} points): ${inRef.map((k) => `${k.id} "${k.snippet}"`).join(', ')}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
