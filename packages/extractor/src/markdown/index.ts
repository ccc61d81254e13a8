// Public surface of the HTML → markdown converter (owned by the markdown work, issue 3).
export {};
