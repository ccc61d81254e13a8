/**
 * What `require('crawlkit')` loads (the `require` condition of the package's `exports`). Node.js 22.12 and later
 * load the library's ES modules with require(), and its first module checks the Node.js version. An older Node.js
 * throws ERR_REQUIRE_ESM there, which tells the user to rewrite their require() as an import() and nothing about
 * the Node.js crawlkit needs; this says what to install instead. A recent Node.js throws it only when require() of
 * ES modules is turned off by a flag: that is what it says then. A require() that is not Node.js's own throws it too,
 * with Node.js able to: a test runner's module registry (Jest's, unless Jest runs with --experimental-vm-modules).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the CommonJS entry: loading with require() is its job */
try {
  module.exports = require('./index.js') as unknown;
} catch (error) {
  if ((error as { code?: unknown }).code !== 'ERR_REQUIRE_ESM') throw error;
  const { engines } = require('../package.json') as { engines: { node: string } };
  const needed = engines.node.replace('>=', '');
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const [needMajor = 0, needMinor = 0] = needed.split('.').map(Number);
  const recent = major > needMajor || (major === needMajor && minor >= needMinor);
  // Without the flag, a recent Node.js's own require() loads ES modules: a loader that cannot is another's. Asked of
  // the flag itself: Jest's sandbox says `process.features.require_module` is false whatever Node.js can do.
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  const foreign = recent && !/--no-(experimental-)?require-module\b/.test(flags);
  const said = String((error as { message?: unknown }).message ?? error).split('\n')[0];
  // A Node.js recent enough can require() ES modules unless told not to: telling its user to install it is wrong.
  const problem = new Error(
    foreign
      ? `crawlkit's ES modules were require()d by a module loader that is not Node.js's own and cannot load them ` +
          `(${said}). Under Jest, run it with NODE_OPTIONS=--experimental-vm-modules: Jest 30 then require()s ES ` +
          'modules as Node.js does (an older Jest needs ES module test files that import crawlkit). vitest and ' +
          '`node --test` load crawlkit as they are.'
      : recent
        ? `this Node.js ${process.versions.node} (${process.execPath}) can require() crawlkit's ES modules, but that is ` +
          'turned off (--no-experimental-require-module, on its command line or in NODE_OPTIONS). Remove that flag, ' +
          "or load crawlkit with `await import('crawlkit')`."
        : `crawlkit needs Node.js ${needed} or later; this is Node.js ${process.versions.node} (${process.execPath}), ` +
          `which cannot require() crawlkit's ES modules. Install Node.js ${needed} or later (a current LTS from ` +
          'https://nodejs.org, or `nvm install --lts`) and run crawlkit with it.',
  );
  throw Object.assign(problem, { code: 'NODE_UNSUPPORTED' });
}
