// A synthetic article page of a given size: headings, paragraphs with inline markup and links, lists, a table, code,
// quotes and images, repeated with varying words (deterministic, so runs compare).

const WORDS = (
  'the of and to in is that for it as was with be by on not he this are or his from at which but have an they ' +
  'you were her she there been one all we their has would when if so no will can more other its who into some ' +
  'crawl page markdown parser stream table column header value token buffer linear memory budget deadline'
).split(' ');

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x1_0000_0000;
  };
}

function section(n: number, rand: () => number): string {
  const word = (): string => WORDS[Math.floor(rand() * WORDS.length)]!;
  const words = (k: number): string => Array.from({ length: k }, word).join(' ');
  const sentence = (): string => {
    const w = words(8 + Math.floor(rand() * 12));
    return w[0]!.toUpperCase() + w.slice(1) + '.';
  };
  const paragraph = (): string =>
    `<p>${sentence()} <a href="/article/${n}/${word()}">${words(3)}</a> ${sentence()} <strong>${words(2)}</strong> ` +
    `and <em>${words(2)}</em> with <code>${word()}_${word()}()</code>. ${sentence()} ${sentence()}</p>\n`;
  let html = `<section id="s${n}">\n<h2>${words(4)} ${n}</h2>\n`;
  html += paragraph() + paragraph();
  html += `<ul>\n${Array.from({ length: 4 }, () => `  <li>${words(5)} <a href="https://example.com/${word()}">${word()}</a></li>`).join('\n')}\n</ul>\n`;
  html += paragraph();
  if (n % 3 === 0) {
    html += '<table>\n<thead><tr><th>Name</th><th>Value</th><th>Note</th></tr></thead>\n<tbody>\n';
    for (let r = 0; r < 5; r++)
      html += `<tr><td>${word()}</td><td>${Math.floor(rand() * 1000)}</td><td>${words(4)}</td></tr>\n`;
    html += '</tbody>\n</table>\n';
  }
  if (n % 4 === 1) {
    html += `<pre><code class="language-js">function ${word()}(a, b) {\n  return a * b + ${n};\n}\n</code></pre>\n`;
  }
  if (n % 5 === 2) html += `<blockquote><p>${sentence()} ${sentence()}</p></blockquote>\n`;
  if (n % 2 === 0)
    html += `<figure><img src="/img/${n}.jpg" alt="${words(3)}"><figcaption>${words(6)}</figcaption></figure>\n`;
  html += `<div class="meta"><span>${words(2)}</span> &middot; <span>${Math.floor(rand() * 100)} comments</span></div>\n`;
  return html + '</section>\n';
}

/** An HTML page of about `bytes` characters. */
export function syntheticPage(bytes: number, seed = 42): string {
  const rand = rng(seed);
  const head = '<!doctype html><html><head><title>Synthetic</title></head><body><main><article>\n';
  const tail = '</article></main></body></html>\n';
  const parts: string[] = [head];
  let size = head.length + tail.length;
  for (let n = 0; size < bytes; n++) {
    const s = section(n, rand);
    parts.push(s);
    size += s.length;
  }
  parts.push(tail);
  return parts.join('');
}
