// Markdown converter
export * from './markdown/index.js';
// Main-content extraction
export * from './content/index.js';
// Page pipeline: parsing, cleaning, links, images, metadata, PDF
export {};
