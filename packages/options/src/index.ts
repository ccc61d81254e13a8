export { InvalidOptionError, isInvalidOptionError } from './invalid-option-error.js';
export { COMPILE_AFTER, safeParse } from './cold-parse.js';
export { optionIssuesMessage, parseOptions } from './parse-options.js';
export { functionOption, isObject, membersLacking, nonNegativeInt, objectWith, positiveInt } from './shapes.js';
export type { Same } from './shapes.js';
export { lazyModule } from './lazy-module.js';
export { LISTENER_DEFAULTS } from './listener-options.js';
export type { CorsSetting, ListenerOptions } from './listener-options.js';
export { isProcessGone } from './process-gone.js';
