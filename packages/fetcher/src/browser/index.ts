// Public surface of the browser engine (owned by the browser work, issue 4).
export {};
