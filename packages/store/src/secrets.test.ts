import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isInvalidOptionError } from '@crawlkit/options';
import { afterAll, describe, expect, it } from 'vitest';

import { isStoreError } from './errors.js';
import { isSealed, keyFileSecretBox, memorySecretBox, missingSecretBox, parseSecretKey, secretBox } from './secrets.js';

const root = mkdtempSync(join(tmpdir(), 'ck-secrets-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (isInvalidOptionError(error)) return error.code;
    return isStoreError(error) ? error.code : 'not a store error';
  }
  return undefined;
}

describe('secret boxes', () => {
  it('seal to an opaque value that only the same key opens', () => {
    const key = randomBytes(32);
    const box = secretBox(key);
    const sealed = box.seal('Bearer s3cret.token');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('s3cret.token'); // a '.' never appears in the sealed form
    expect(box.seal('Bearer s3cret.token')).not.toBe(sealed); // a fresh IV each time
    expect(secretBox(key.toString('base64')).open(sealed)).toBe('Bearer s3cret.token');
    expect(secretBox(key.toString('hex')).open(sealed)).toBe('Bearer s3cret.token');
    expect(codeOf(() => secretBox(randomBytes(32)).open(sealed))).toBe('STORE_SECRET_UNREADABLE');
    // One bit changed: the authentication tag refuses it.
    const tampered = sealed.slice(0, -3) + (sealed.at(-3) === 'A' ? 'B' : 'A') + sealed.slice(-2);
    expect(codeOf(() => box.open(tampered))).toBe('STORE_SECRET_UNREADABLE');
    // Values written before sealing existed read as they are.
    expect(box.open('plain')).toBe('plain');
  });

  it('refuse keys that are not 32 bytes of base64 or hex', () => {
    expect(codeOf(() => parseSecretKey('short'))).toBe('INVALID_OPTION');
    expect(codeOf(() => parseSecretKey(randomBytes(16).toString('base64')))).toBe('INVALID_OPTION');
    expect(parseSecretKey(`  ${randomBytes(32).toString('hex')}\n`)).toHaveLength(32);
  });

  it('keep a key file beside the store: 0600, made on the first seal, shared by every box on the directory', () => {
    const dir = join(root, 'store');
    const first = keyFileSecretBox(dir);
    // Nothing sealed yet: no file, and nothing sealed to open either.
    expect(codeOf(() => first.open(secretBox(randomBytes(32)).seal('x')))).toBe('STORE_SECRET_KEY_MISSING');
    const sealed = first.seal('cookie=1');
    const path = join(dir, 'secret.key');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(parseSecretKey(readFileSync(path, 'utf8'))).toHaveLength(32);
    const second = keyFileSecretBox(dir);
    expect(second.open(sealed)).toBe('cookie=1');
    expect(first.open(second.seal('token'))).toBe('token');
    rmSync(path);
    expect(codeOf(() => keyFileSecretBox(dir).open(sealed))).toBe('STORE_SECRET_KEY_MISSING');
    // A file that cannot be read says why (it said "Cannot read the secret key file <path>." alone).
    mkdirSync(path);
    expect(() => keyFileSecretBox(dir).open(sealed)).toThrow(
      `Cannot read the secret key file ${path}: EISDIR: illegal operation on a directory, read.`,
    );
  });

  it('say when a value was sealed by a key kept in memory only, and never seal without a key', () => {
    const sealed = memorySecretBox().seal('x');
    let message = '';
    try {
      memorySecretBox().open(sealed);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('only in the memory');
    // A caller that needs a value after a restart can tell such a box from one whose key outlives the process.
    expect(memorySecretBox().memoryOnly).toBe(true);
    expect(secretBox(randomBytes(32)).memoryOnly).toBe(false);
    const none = missingSecretBox('no key: set one');
    expect(codeOf(() => none.seal('x'))).toBe('STORE_SECRET_KEY_MISSING');
    expect(codeOf(() => none.open(sealed))).toBe('STORE_SECRET_KEY_MISSING');
    expect(none.open('plain')).toBe('plain');
  });
});
