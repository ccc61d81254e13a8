// Public surface of main-content extraction (owned by the main-content work, issue 2).
export {};
