/**
 * The hostile HTML shapes of `bench/hostile.ts`: each builds a page of a given size (its count of repeated parts) that
 * was quadratic or worse in some extractor step before.
 */
// The shapes: issue 22's seven, then what profiling them found (each was quadratic or worse before).
const rows = (count: number, cell: (r: number, c: number) => string) =>
  Array.from({ length: count }, (_, r) => `<tr>${Array.from({ length: count }, (_, c) => cell(r, c)).join('')}</tr>`);
export const SHAPES: { name: string; size: number; build: (size: number) => string }[] = [
  { name: 'links', size: 200_000, build: (k) => body(repeat(k, (i) => `<a href="/l/${i}">link ${i}</a> `)) },
  { name: 'nested divs', size: 300_000, build: (k) => body(`${'<div>'.repeat(k)}deep text${'</div>'.repeat(k)}`) },
  { name: 'images', size: 200_000, build: (k) => body(repeat(k, (i) => `<img src="/i/${i}.png" alt="image ${i}">`)) },
  { name: 'nested lists', size: 100_000, build: (k) => body(`${'<ul><li>item'.repeat(k)}${'</li></ul>'.repeat(k)}`) },
  { name: 'paragraphs', size: 1_000_000, build: (k) => body(repeat(k, (i) => `<p>Paragraph ${i} of the page.</p>`)) },
  { name: 'unclosed divs', size: 1_000_000, build: (k) => body('<div>x'.repeat(k)) },
  {
    name: 'table (rows = columns)',
    size: 1_000,
    build: (k) => body(`<table>${rows(k, (r, c) => `<td>${r}:${c}</td>`).join('')}</table>`),
  },
  {
    name: 'quoting replies',
    size: 50_000,
    build: (k) =>
      body(
        `<article>${repeat(k, (i) => `<p>Post number ${i} says something long enough to count.</p>`)}` +
          `${repeat(k, (i) => `<blockquote><p>Reply number ${i} quotes something long enough.</p></blockquote>`)}</article>`,
      ),
  },
  {
    name: 'same-size blocks',
    size: 50_000,
    build: (k) =>
      body(
        `<article>${repeat(k, (i) => {
          const id = String(i).padStart(7, '0');
          return `<div><p>First paragraph of group ${id} with some words.</p><p>Second paragraph of group ${id}, more.</p></div>`;
        })}</article>`,
      ),
  },
  {
    name: 'srcset candidates',
    size: 200_000,
    build: (k) => body(`<p>text</p><img srcset="${'a.png 1x,'.repeat(k)}b.png 2x">`),
  },
  {
    name: 'unclosed css url(',
    size: 200_000,
    build: (k) => body(`<p>text</p><div style="background:${'url('.repeat(k)}">x</div>`),
  },
  {
    name: 'unclosed CDATA chain',
    size: 20_000,
    build: (k) => body(`<p>start</p>${repeat(k, () => `<![CDATA[${'x'.repeat(200)}><p>after</p>`)}`),
  },
  {
    name: 'spanning table rows',
    size: 100_000,
    build: (k) =>
      body(`<table><tr><th colspan=1000 rowspan=65534>x</th></tr>${'<tr><td>y</td></tr>'.repeat(k)}</table>`),
  },
  // the main-content rules of issue 18's eleventh part (bylines, ledes, FAQ toggles, announced lists, pointer
  // headings, placeholders) and the lead's streamed parts and sign-up forms, each shape once quadratic or near it
  {
    name: 'bylines',
    size: 40_000,
    build: (k) =>
      body(
        `<article><h1>Title</h1>${repeat(k, (i) => `<div class="byline">By <a rel="author">Author ${i}</a> <time datetime="2025-03-03">March 3, 2025</time></div>`)}${prose(200)}</article>`,
      ),
  },
  {
    name: 'byline parts in one block',
    size: 40_000,
    build: (k) =>
      body(
        `<article><h1>Title</h1><div>${repeat(k, (i) => `By <a rel="author">Author ${i}</a> <time datetime="2025-03-03">March 3, 2025</time> `)}</div>${prose(200)}</article>`,
      ),
  },
  {
    name: 'datelines',
    size: 100_000,
    build: (k) =>
      body(
        `<article><h1>Title</h1>${repeat(k, (i) => `<div>March ${(i % 28) + 1}, 2025</div>`)}${prose(200)}</article>`,
      ),
  },
  {
    name: 'deep bylines',
    size: 100_000,
    build: (k) =>
      body(
        `<article>${'<div class="meta">'.repeat(600)}<h1>Title</h1>${repeat(k, (i) => `<span class="date">March ${(i % 28) + 1}, 2025</span>`)}${'</div>'.repeat(600)}${prose(200)}</article>`,
      ),
  },
  {
    name: 'lede in deep wrappers',
    size: 200_000,
    build: (k) =>
      body(
        `<section><h1>Title</h1>${'<div>'.repeat(600)}${prose(3)}${'<label>x</label>'.repeat(k)}${'</div>'.repeat(600)}<article>${prose(k / 10)}</article></section>`,
      ),
  },
  {
    name: 'question toggles',
    size: 20_000,
    build: (k) =>
      body(
        `<main><h1>FAQ</h1>${repeat(k, (i) => `<div><button aria-expanded="false">Question number ${i}, is it?</button><div><p>Answer ${i} to the question, long enough.</p></div></div>`)}</main>`,
      ),
  },
  {
    name: 'nested question toggles',
    size: 50_000,
    build: (k) =>
      body(
        `<main><h1>FAQ</h1>${'<button aria-expanded="false"><span>'.repeat(k)}Is it?${'</span></button>'.repeat(k)}${prose(200)}</main>`,
      ),
  },
  {
    name: 'announced lists',
    size: 8_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${prose(k)}${'<div>'.repeat(600)}${repeat(k, (i) => `<div>${links(10, i)}<p>These ones are still worth looking into, all of them:</p><ul><li><a href="/x/${i}">x</a></li><li><a href="/y/${i}">y</a></li><li><a href="/z/${i}">z</a></li></ul></div>`)}${'</div>'.repeat(600)}</main>`,
      ),
  },
  {
    name: 'announced list in link wrappers',
    size: 20_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${prose(k / 2)}${repeat(500, (i) => `<div><a href="/c/${i}">chain ${i}</a> `)}${links(k, 0)}<p>These ones are still worth looking into, all of them:</p><ul><li><a href="/x">x</a></li><li><a href="/y">y</a></li><li><a href="/z">z</a></li></ul>${'</div>'.repeat(500)}</main>`,
      ),
  },
  {
    name: 'pointer headings',
    size: 20_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${repeat(k, (i) => `<div><h2>Further reading</h2><ul><li><a href="/a/${i}">Link ${i}</a></li><li><a href="/b/${i}">Other ${i}</a></li></ul><p>Paragraph ${i} of the story, a sentence long enough to count as prose.</p>`)}${'</div>'.repeat(k)}</main>`,
      ),
  },
  {
    name: 'placeholders',
    size: 30_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${prose(k)}${'<div><b>level</b>'.repeat(500)}${repeat(k, (i) => `<div><h3>Heading Line</h3><p>Lorem ipsum dolor sit amet ${i}.</p></div><div>Loading paragraph ${i}...</div>`)}${'</div>'.repeat(500)}</main>`,
      ),
  },
  {
    name: 'streamed parts',
    size: 40_000,
    build: (k) =>
      body(
        `<main>${repeat(k, (i) => `<!--$?--><template id="B:${i.toString(16)}"></template><div>Loading…</div><!--/$-->`)}</main>${repeat(k, (i) => `<div hidden id="S:${i.toString(16)}"><p>Part ${i} of the story, a sentence long enough to count as prose.</p></div>`)}`,
      ),
  },
  {
    name: 'linked-title runs',
    size: 100_000,
    build: (k) =>
      body(
        `<article>${prose(200)}${'<div>'.repeat(600)}${repeat(k, (i) => `<p><a href="/g/${i}">Guide ${i} to the city</a></p>${i % 7 === 0 ? `<img src="/i/${i}.png" alt="">` : ''}`)}${'</div>'.repeat(600)}</article>`,
      ),
  },
  {
    name: 'noscript iframes',
    size: 100_000,
    build: (k) =>
      body(repeat(k, (i) => `<noscript><iframe src="/ns/${i}"></noscript><p>Paragraph ${i} after a tag snippet.</p>`)),
  },
  {
    name: 'wrapper chain',
    size: 20_000,
    build: (k) =>
      body(
        `<main>${prose(50)}${'<div>'.repeat(500)}${repeat(k, (i) => `<p>Short line ${i} of a list.</p>`)}${'</div>'.repeat(500)}</main>`,
      ),
  },
  {
    name: 'teaser cards on an article',
    size: 30_000,
    build: (k) =>
      `<!doctype html><html><head><meta property="og:type" content="article"><title>Hostile</title></head><body>${'<div>'.repeat(300)}<div>${prose(100)}</div>${repeat(k, (i) => `${i % 3 === 0 ? '<div class="row">' : ''}<div class="card"><h5><a href="/c">Section</a></h5><h3><a href="/s/${i}">Story number ${i} of the related reads</a></h3><p>Blurb ${i} of a story, a sentence long enough to count as prose.</p></div>${i % 3 === 2 ? '</div>' : ''}`)}${'</div>'.repeat(300)}</body></html>`,
  },
  {
    name: 'phone links',
    size: 20_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${prose(200)}${repeat(k, (i) => `<div>${'<span>'.repeat(20)}<a href="tel:+1800555${i}">(800) 555-${i}</a>${'</span>'.repeat(20)}<span>${'<b></b>'.repeat(20)}Call us</span></div>`)}</main>`,
      ),
  },
  {
    name: 'jump links among empty siblings',
    size: 20_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${prose(200)}<p>${repeat(k, (i) => `${'<i></i>'.repeat(20)}<a href="#pick-${i}">Jump to details</a>`)}</p></main>`,
      ),
  },
  {
    name: 'nested sign-up forms',
    size: 20_000,
    build: (k) =>
      body(
        `${'<form>'.repeat(600)}${repeat(k, (i) => `<input type="email"><p>Field ${i} text.</p>`)}${'</form>'.repeat(600)}`,
      ),
  },
];

function body(inner: string): string {
  return `<!doctype html><html><head><title>Hostile</title></head><body>${inner}</body></html>`;
}
function prose(count: number): string {
  return repeat(count, (i) => `<p>Paragraph ${i} of the story, a sentence long enough to count as prose.</p>`);
}
function links(count: number, group: number): string {
  return repeat(count, (i) => `<a href="/l/${group}/${i}">link ${i}</a> `);
}
function repeat(count: number, item: (i: number) => string): string {
  const parts: string[] = new Array(count);
  for (let i = 0; i < count; i++) parts[i] = item(i);
  return parts.join('');
}
