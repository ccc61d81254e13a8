/**
 * Fingerprint evasions of `proxy: 'stealth'`, run in every frame before the page's own scripts. They hide the
 * common tells of headless automation: `navigator.webdriver`, an empty `navigator.plugins`, a missing
 * `window.chrome`, languages that disagree with `Accept-Language`, SwiftShader as the WebGL vendor, and a
 * notifications permission that contradicts `Notification.permission`. (The user agent and client hints are
 * fixed through CDP in `emulation.ts`.)
 */
export function stealthScript(languages: readonly string[]): string {
  return `(() => {
  const langs = ${JSON.stringify(languages.length ? languages : ['en-US', 'en'])};
  const define = (target, property, get) => {
    try { Object.defineProperty(target, property, { get, configurable: true, enumerable: true }); } catch {}
  };
  define(Navigator.prototype, 'webdriver', () => false);
  define(Navigator.prototype, 'languages', () => Object.freeze(langs.slice()));
  define(Navigator.prototype, 'language', () => langs[0]);
  define(Navigator.prototype, 'hardwareConcurrency', () => 8);
  define(Navigator.prototype, 'deviceMemory', () => 8);
  if (navigator.plugins && navigator.plugins.length === 0) {
    const names = ['PDF Viewer', 'Chrome PDF Viewer', 'Chromium PDF Viewer', 'Microsoft Edge PDF Viewer', 'WebKit built-in PDF'];
    const plugins = names.map((name) => ({ name, filename: 'internal-pdf-viewer', description: 'Portable Document Format', length: 1 }));
    define(Navigator.prototype, 'plugins', () => Object.assign(plugins.slice(), { item: (i) => plugins[i] ?? null, namedItem: (n) => plugins.find((p) => p.name === n) ?? null, refresh: () => {} }));
  }
  if (!window.chrome) {
    Object.defineProperty(window, 'chrome', {
      value: { app: { isInstalled: false }, runtime: {}, csi: () => ({}), loadTimes: () => ({}) },
      configurable: true, writable: true,
    });
  }
  const patchWebGL = (proto) => {
    if (!proto) return;
    const getParameter = proto.getParameter;
    proto.getParameter = function (parameter) {
      if (parameter === 37445) return 'Intel Inc.';
      if (parameter === 37446) return 'Intel Iris OpenGL Engine';
      return getParameter.call(this, parameter);
    };
  };
  patchWebGL(window.WebGLRenderingContext && WebGLRenderingContext.prototype);
  patchWebGL(window.WebGL2RenderingContext && WebGL2RenderingContext.prototype);
  if (navigator.permissions && navigator.permissions.query && window.Notification) {
    const query = navigator.permissions.query.bind(navigator.permissions);
    navigator.permissions.query = (descriptor) =>
      descriptor && descriptor.name === 'notifications'
        ? Promise.resolve({ state: Notification.permission === 'default' ? 'prompt' : Notification.permission, onchange: null })
        : query(descriptor);
  }
})();`;
}
