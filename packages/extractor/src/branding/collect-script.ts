/**
 * The in-page collector of branding: a script expression that, evaluated in the rendered page (e.g. by the
 * `executeJavascript` action), returns a `BrandingSnapshot`. It only reads the page (an input is focused and blurred
 * again to read its focus style). Colours are resolved through a 1×1 canvas, so `oklch()`, `color-mix()`, named
 * colours and `var()` chains all come back as hex. Work is bounded: at most `MAX_ELEMENTS` elements are measured.
 */
export const BRANDING_SCRIPT = String.raw`(() => {
  const MAX_ELEMENTS = 4000;
  const SAMPLE_LIMIT = 40;
  const doc = document;
  const view = window;
  const canvas = doc.createElement('canvas');
  canvas.width = 1;
  canvas.height = 1;
  const g = canvas.getContext('2d', { willReadFrequently: true });
  const colorCache = new Map();
  const hex2 = (n) => n.toString(16).padStart(2, '0');

  const toHex = (value) => {
    if (!value || value === 'transparent' || value === 'none') return null;
    if (colorCache.has(value)) return colorCache.get(value);
    let out = null;
    if (g) {
      g.clearRect(0, 0, 1, 1);
      g.fillStyle = '#000000';
      g.fillStyle = '#010203';
      const sentinel = g.fillStyle;
      g.fillStyle = value;
      if (g.fillStyle !== sentinel || /^#?010203$/i.test(value.trim())) {
        g.fillRect(0, 0, 1, 1);
        const [r, gr, b, a] = g.getImageData(0, 0, 1, 1).data;
        if (a > 0) out = '#' + hex2(r) + hex2(gr) + hex2(b) + (a < 255 ? hex2(a) : '');
      }
    }
    colorCache.set(value, out);
    return out;
  };
  const opaque = (hex) => hex !== null && hex.length === 7;

  const add = (map, key, weight) => {
    if (key === null || key === undefined || key === '' || !(weight > 0)) return;
    map.set(key, (map.get(key) || 0) + weight);
  };
  const top = (map, n) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n || SAMPLE_LIMIT)
      .map(([value, weight]) => ({ value, weight: Math.round(weight) }));
  const px = (v) => {
    const n = parseFloat(v);
    return Number.isFinite(n) ? n : 0;
  };
  const abs = (url) => {
    if (!url) return null;
    try {
      return new URL(url, doc.baseURI).href;
    } catch {
      return null;
    }
  };
  const metaContent = (selector) => {
    const el = doc.querySelector(selector);
    const v = el && el.getAttribute('content');
    return v && v.trim() ? v.trim() : null;
  };
  const hintOf = (el) =>
    (el.tagName + ' ' + (el.id || '') + ' ' + (typeof el.className === 'string' ? el.className : (el.getAttribute('class') || ''))).toLowerCase();
  const visible = (el, cs, rect) =>
    rect.width > 0 && rect.height > 0 && cs.display !== 'none' && cs.visibility !== 'hidden' && parseFloat(cs.opacity) > 0.05;
  const ownText = (el) => {
    let n = 0;
    for (const child of el.childNodes) if (child.nodeType === 3) n += child.textContent.replace(/\s+/g, ' ').trim().length;
    return n;
  };
  const corners = (cs) => ({
    topLeft: cs.borderTopLeftRadius,
    topRight: cs.borderTopRightRadius,
    bottomRight: cs.borderBottomRightRadius,
    bottomLeft: cs.borderBottomLeftRadius,
  });
  const shadowOf = (cs) => (cs.boxShadow && cs.boxShadow !== 'none' ? cs.boxShadow : null);
  const borderOf = (cs) => {
    const w = px(cs.borderTopWidth) + px(cs.borderRightWidth) + px(cs.borderBottomWidth) + px(cs.borderLeftWidth);
    return { width: w / 4, color: w > 0 && cs.borderTopStyle !== 'none' ? toHex(cs.borderTopColor) : null };
  };
  const sample = (el) => {
    if (!el) return undefined;
    const cs = view.getComputedStyle(el);
    const lh = cs.lineHeight === 'normal' ? null : px(cs.lineHeight);
    return { fontFamily: cs.fontFamily, fontSize: px(cs.fontSize), fontWeight: Number(cs.fontWeight) || 400, lineHeight: lh, color: toHex(cs.color) };
  };
  const firstWithText = (selector) => {
    for (const el of doc.querySelectorAll(selector)) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && el.textContent.trim().length > 0) return el;
    }
    return null;
  };

  const header = doc.querySelector('header, [role="banner"], #header, .header, .site-header, nav');
  const footer = doc.querySelector('footer, [role="contentinfo"], #footer, .footer, .site-footer');
  const scrollY = view.scrollY || 0;
  const scrollX = view.scrollX || 0;

  // Custom properties declared on the root, html or body (from same-origin style sheets and inline styles).
  const varNames = new Set();
  const collectVars = (rules) => {
    for (const rule of rules) {
      if (rule.cssRules && !rule.selectorText) {
        try { collectVars(rule.cssRules); } catch {}
        continue;
      }
      if (!rule.style || !rule.selectorText) continue;
      if (!/(^|,)\s*(:root|html|body)\b/i.test(rule.selectorText)) continue;
      for (let i = 0; i < rule.style.length; i++) {
        const name = rule.style[i];
        if (name.startsWith('--')) varNames.add(name);
      }
    }
  };
  for (const sheet of doc.styleSheets) {
    try { collectVars(sheet.cssRules); } catch {}
  }
  for (const el of [doc.documentElement, doc.body]) {
    if (!el) continue;
    for (let i = 0; i < el.style.length; i++) if (el.style[i].startsWith('--')) varNames.add(el.style[i]);
  }
  const rootStyle = view.getComputedStyle(doc.documentElement);
  const probe = doc.createElement('div');
  probe.style.display = 'none';
  (doc.body || doc.documentElement).appendChild(probe);
  const vars = [];
  // Only names that can declare a colour role are resolved (design systems declare hundreds of palette steps).
  const ROLE_WORDS = /primary|secondary|tertiary|accent|brand|main|highlight|background|bg|surface|page|canvas|text|foreground|fg|body|ink|muted|subtle|link|success|positive|ok|warn|caution|error|danger|destructive|negative|critical/i;
  for (const name of [...varNames].filter((n) => ROLE_WORDS.test(n)).slice(0, 600)) {
    const value = rootStyle.getPropertyValue(name).trim();
    if (!value || value.length > 200) continue;
    probe.style.color = '';
    probe.style.color = 'var(' + name + ')';
    let color = null;
    if (/^(#|rgb|hsl|hwb|lab|lch|oklab|oklch|color\(|color-mix|[a-z]+$)/i.test(value) || /^\d+(\.\d+)?\s+\d+(\.\d+)?%\s+\d+(\.\d+)?%$/.test(value)) {
      const resolved = view.getComputedStyle(probe).color;
      color = /^[a-z]+$/i.test(value) && !CSS.supports('color', value) ? null : toHex(resolved);
      // Bare "H S% L%" channels (shadcn/Tailwind convention): read them as hsl().
      if (/^\d+(\.\d+)?\s+\d+(\.\d+)?%\s+\d+(\.\d+)?%$/.test(value)) color = toHex('hsl(' + value + ')');
    }
    vars.push({ name, value, color });
  }
  probe.remove();

  // Page background: the first opaque one of html, body, then full-width wrappers near the top.
  let pageBackground = null;
  const bgChain = [doc.documentElement, doc.body];
  for (const el of doc.body ? doc.body.children : []) {
    const r = el.getBoundingClientRect();
    if (r.width >= view.innerWidth * 0.95 && r.height >= view.innerHeight * 0.5) bgChain.push(el);
  }
  for (const el of bgChain) {
    if (!el) continue;
    const c = toHex(view.getComputedStyle(el).backgroundColor);
    if (opaque(c)) { pageBackground = c; break; }
  }

  const textColors = new Map();
  const linkColors = new Map();
  const backgroundColors = new Map();
  const borderColors = new Map();
  const fontStacks = new Map();
  const fontWeights = new Map();
  const radii = new Map();
  const maxWidths = new Map();
  const durations = new Map();
  const easings = new Map();
  const spacingValues = [];
  const gaps = [];
  const buttons = [];
  const inputs = [];
  const logos = [];
  let svgCount = 0;
  const pageHeight = Math.max(doc.documentElement.scrollHeight, view.innerHeight);
  const areaLimit = Math.min(pageHeight, view.innerHeight * 4);

  const isButton = (el, hint) =>
    el.tagName === 'BUTTON' ||
    (el.tagName === 'INPUT' && /^(submit|button)$/i.test(el.type)) ||
    el.getAttribute('role') === 'button' ||
    (el.tagName === 'A' && /(^|[\s_-])(btn|button|cta)([\s_-]|$)/.test(hint));
  const isInput = (el) =>
    el.tagName === 'TEXTAREA' ||
    (el.tagName === 'INPUT' && /^(text|email|search|url|tel|password|number|)$/i.test(el.getAttribute('type') || ''));

  const all = doc.body ? doc.body.querySelectorAll('*') : [];
  const count = Math.min(all.length, MAX_ELEMENTS);
  for (let i = 0; i < count; i++) {
    const el = all[i];
    if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|META|LINK|BR|HEAD|TITLE)$/.test(el.tagName)) continue;
    const cs = view.getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    if (!visible(el, cs, rect)) continue;
    const hint = hintOf(el);
    const text = ownText(el);
    const inLink = el.closest('a');
    const button = isButton(el, hint);

    if (text > 0) {
      const color = toHex(cs.color);
      // Navigation links are styled as menu text: they count for a tenth of a link in the content.
      const chrome = (header && header.contains(el)) || (footer && footer.contains(el)) || el.closest('nav');
      if (inLink && !button && !el.closest('button, [role="button"]')) add(linkColors, color, chrome ? text / 10 : text);
      else if (!button && !el.closest('button, [role="button"]')) add(textColors, color, text);
      // Form controls do not inherit fonts by default: their UA font says nothing about the brand.
      if (!/^(BUTTON|INPUT|TEXTAREA|SELECT|OPTION)$/.test(el.tagName) && !el.closest('button')) {
        add(fontStacks, cs.fontFamily, text);
        add(fontWeights, Number(cs.fontWeight) || 400, text);
      }
    }

    const bg = toHex(cs.backgroundColor);
    const visTop = Math.max(0, rect.top + scrollY);
    const visBottom = Math.min(areaLimit, rect.bottom + scrollY);
    const area = Math.max(0, visBottom - visTop) * Math.max(0, Math.min(rect.right, view.innerWidth) - Math.max(rect.left, 0));
    if (opaque(bg)) add(backgroundColors, bg, area);
    const border = borderOf(cs);
    if (border.color && opaque(border.color)) add(borderColors, border.color, (rect.width + rect.height) * 2 * border.width);
    if ((opaque(bg) || border.width > 0) && cs.borderTopLeftRadius !== '0px') add(radii, cs.borderTopLeftRadius, 1);

    for (const v of [cs.paddingTop, cs.paddingRight, cs.paddingBottom, cs.paddingLeft, cs.marginTop, cs.marginBottom]) {
      const n = px(v);
      if (n > 0 && n < 200 && spacingValues.length < 3000) spacingValues.push(Math.round(n * 100) / 100);
    }
    if (/flex|grid/.test(cs.display)) {
      const gap = px(cs.columnGap) || px(cs.rowGap);
      if (gap > 0) gaps.push(gap);
    }
    if (cs.maxWidth !== 'none' && cs.maxWidth.endsWith('px') && px(cs.maxWidth) >= 480) add(maxWidths, cs.maxWidth, 1);
    if (cs.transitionDuration && cs.transitionDuration !== '0s') {
      add(durations, cs.transitionDuration.split(',')[0].trim(), 1);
      add(easings, cs.transitionTimingFunction.split(',')[0].trim(), 1);
    }

    if (button && buttons.length < 60) {
      const label = (el.tagName === 'INPUT' ? el.value : el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60);
      buttons.push({
        text: label,
        hint,
        background: bg,
        textColor: toHex(cs.color),
        borderColor: border.color,
        borderWidth: border.width,
        radius: corners(cs),
        shadow: shadowOf(cs),
        area: rect.width * rect.height,
        top: rect.top + scrollY,
        inHeader: !!(header && header.contains(el)),
        paddingX: px(cs.paddingLeft),
        paddingY: px(cs.paddingTop),
      });
    }
    if (isInput(el) && inputs.length < 10) {
      const before = doc.activeElement;
      let focusBorderColor = null;
      try {
        el.focus({ preventScroll: true });
        const fcs = view.getComputedStyle(el);
        const fb = borderOf(fcs);
        focusBorderColor = fb.color;
        const outline = fcs.outlineStyle !== 'none' && px(fcs.outlineWidth) > 0 ? toHex(fcs.outlineColor) : null;
        if (outline && fb.color === border.color) focusBorderColor = outline;
        el.blur();
        if (before && before !== doc.body && before.focus) before.focus({ preventScroll: true });
      } catch {}
      inputs.push({
        background: bg,
        textColor: toHex(cs.color),
        borderColor: border.color,
        borderWidth: border.width,
        focusBorderColor,
        radius: corners(cs),
        shadow: shadowOf(cs),
        paddingX: px(cs.paddingLeft),
      });
    }

    // Logo candidates: images and inline SVGs near the top or in the header, and elements whose background is one.
    const nearTop = rect.top + scrollY < 400;
    const inHeader = !!(header && header.contains(el));
    const inFooter = !!(footer && footer.contains(el));
    if (logos.length < 30 && (nearTop || inHeader || inFooter || /logo/.test(hint))) {
      let kind = null;
      let src = null;
      let alt = '';
      if (el.tagName === 'IMG') {
        kind = 'img';
        src = el.currentSrc || abs(el.getAttribute('src'));
        alt = el.getAttribute('alt') || '';
      } else if (el.tagName === 'svg' || el.tagName === 'SVG') {
        if (!el.parentElement || !el.parentElement.closest('svg')) {
          kind = 'svg';
          const markup = el.outerHTML;
          if (markup.length < 16000 && svgCount++ < 10) src = 'data:image/svg+xml;base64,' + btoa(unescape(encodeURIComponent(markup)));
          const title = el.querySelector('title');
          alt = el.getAttribute('aria-label') || (title ? title.textContent : '') || '';
        }
      } else if (cs.backgroundImage && cs.backgroundImage.startsWith('url(') && /logo|brand/.test(hint)) {
        kind = 'background';
        const m = cs.backgroundImage.match(/url\(["']?([^"')]+)["']?\)/);
        src = m ? abs(m[1]) : null;
        alt = el.getAttribute('aria-label') || el.textContent.trim().slice(0, 60);
      }
      if (kind && src) {
        const link = el.closest('a');
        const file = kind === 'svg' ? '' : src.split(/[?#]/)[0].split('/').pop() || '';
        logos.push({
          kind,
          src,
          alt: alt.trim().slice(0, 120),
          hint: (hint + ' ' + (link ? hintOf(link) : '') + ' ' + (link ? link.getAttribute('aria-label') || '' : '') + ' ' + file).toLowerCase(),
          href: link ? abs(link.getAttribute('href')) : null,
          left: rect.left + scrollX,
          top: rect.top + scrollY,
          width: rect.width,
          height: rect.height,
          inHeader,
          inFooter,
        });
      }
    }
  }

  const icons = [];
  for (const link of doc.querySelectorAll('link[rel][href]')) {
    const rel = link.getAttribute('rel').toLowerCase();
    if (!/(^|\s)(icon|shortcut|apple-touch-icon|apple-touch-icon-precomposed|mask-icon)(\s|$)/.test(rel)) continue;
    const href = abs(link.getAttribute('href'));
    if (href) icons.push({ rel, href, sizes: link.getAttribute('sizes'), type: link.getAttribute('type') });
  }

  const samples = {};
  const put = (key, el) => {
    const s = sample(el);
    if (s) samples[key] = s;
  };
  put('body', doc.body);
  put('p', firstWithText('main p, article p, p'));
  put('h1', firstWithText('h1'));
  put('h2', firstWithText('h2'));
  put('h3', firstWithText('h3'));
  put('small', firstWithText('small, figcaption, .small, .caption, .text-sm'));
  put('code', firstWithText('code, pre, kbd, samp'));

  const height = (el) => (el ? Math.round(el.getBoundingClientRect().height) : null);
  const ogImage = metaContent('meta[property="og:image"], meta[name="og:image"], meta[property="og:image:url"]');
  return {
    url: location.href,
    title: doc.title || '',
    text: ((doc.querySelector('main') || doc.body || doc.documentElement).innerText || '').replace(/\s+/g, ' ').trim().slice(0, 4000),
    meta: {
      siteName: metaContent('meta[property="og:site_name"], meta[name="og:site_name"]'),
      applicationName: metaContent('meta[name="application-name"], meta[name="apple-mobile-web-app-title"]'),
      ogImage: ogImage ? abs(ogImage) : null,
      themeColor: toHex(metaContent('meta[name="theme-color"]')),
      colorScheme: metaContent('meta[name="color-scheme"]') || (rootStyle.colorScheme !== 'normal' ? rootStyle.colorScheme : null),
    },
    icons,
    pageBackground,
    samples,
    vars,
    textColors: top(textColors),
    linkColors: top(linkColors),
    backgroundColors: top(backgroundColors),
    borderColors: top(borderColors),
    fontStacks: top(fontStacks),
    fontWeights: top(fontWeights),
    buttons,
    inputs,
    logos,
    spacingValues,
    gaps: gaps.slice(0, 500),
    radii: top(radii),
    layout: { headerHeight: height(header), footerHeight: height(footer), maxWidths: top(maxWidths, 5) },
    transitions: { durations: top(durations, 5), easings: top(easings, 5) },
  };
})()`;
