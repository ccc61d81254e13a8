// Public surface of the HTTP engine (owned by the HTTP work, issue 2).
export {};
