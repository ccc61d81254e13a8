// HTTP engine, URL policy and errors
export * from './http/index.js';
// Browser engine, pool and engine choice
export * from './browser/index.js';
