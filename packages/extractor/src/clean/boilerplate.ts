import type { AnyNode, Element } from 'domhandler';

import { selectSafe } from '../dom/select.js';
import { detachAll } from '../dom/walk.js';
import type { WarningSink } from '../page-warnings.js';

/** The structural boilerplate selectors of the v2 `onlyMainContent` (reference §10.2). */
export const BOILERPLATE_SELECTORS = [
  'header',
  'footer',
  'nav',
  'aside',
  '.header',
  '.top',
  '.navbar',
  '#header',
  '.footer',
  '.bottom',
  '#footer',
  '.sidebar',
  '.side',
  '.aside',
  '#sidebar',
  '.modal',
  '.popup',
  '#modal',
  '.overlay',
  '.ad',
  '.ads',
  '.advert',
  '#ad',
  '.lang-selector',
  '.language',
  '#language-selector',
  '.social',
  '.social-media',
  '.social-links',
  '#social',
  '.menu',
  '.navigation',
  '#nav',
  '.breadcrumbs',
  '#breadcrumbs',
  '.share',
  '#share',
  '.widget',
  '#widget',
  '.cookie',
  '#cookie',
].join(', ');

/** An element that would be removed survives when it contains one of these. */
const FORCE_INCLUDE = [
  '#main',
  '.swoogo-cols',
  '.swoogo-text',
  '.swoogo-table-div',
  '.swoogo-space',
  '.swoogo-alert',
  '.swoogo-sponsors',
  '.swoogo-title',
  '.swoogo-tabs',
  '.swoogo-logo',
  '.swoogo-image',
  '.swoogo-button',
  '.swoogo-agenda',
].join(', ');

/** Removes the §10.2 boilerplate elements under `root`, sparing those that contain a forced-include element. */
export function removeBoilerplate(root: AnyNode[], warnings: WarningSink): void {
  const matches = selectSafe(BOILERPLATE_SELECTORS, root, warnings, 'onlyMainContent');
  const doomed: Element[] = [];
  for (const el of matches) {
    if (selectSafe(FORCE_INCLUDE, el.children, warnings, 'onlyMainContent').length === 0) doomed.push(el);
  }
  detachAll(doomed);
}
