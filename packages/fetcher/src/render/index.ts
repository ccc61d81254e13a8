// The render judge: does a page fetched over HTTP hold its content, or must a browser run its scripts (issue 17).
export { judgeRendering, isRouteFragment, renderingGain } from './judge.js';
export type { JudgedPage, JudgeOptions, RenderJudge, RenderVerdict } from './judge.js';
export { pageSignals } from './page-signals.js';
export type { PageSignals } from './page-signals.js';
export { embeddedContent } from './embedded-text.js';
export type { EmbeddedContent, EmbeddedSource } from './embedded-text.js';
