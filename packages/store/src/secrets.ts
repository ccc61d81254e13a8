import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { InvalidOptionError } from '@crawlkit/options';

import { StoreError } from './errors.js';

/**
 * Encrypts the values a store must keep but nobody reading its files should see (header values a job needs to
 * resume). The store itself only ever holds what `seal` returns.
 */
export interface SecretBox {
  /** Encrypts `value` into an opaque string (AES-256-GCM, a random 96-bit IV per value, authenticated). */
  seal(value: string): string;
  /**
   * Decrypts what `seal` returned. A value that was never sealed (written before values were) comes back as it is.
   * @throws StoreError `STORE_SECRET_KEY_MISSING` when the key is not here, `STORE_SECRET_UNREADABLE` when the value
   * was sealed with another key or altered.
   */
  open(value: string): string;
  /**
   * Whether the key lives in this process's memory only (`memorySecretBox`), so that what it seals can never be
   * opened after the process ends: a caller that must be able to use a value later (a webhook's URL) keeps it as it is
   * rather than seal it with such a key.
   * @default false
   */
  readonly memoryOnly?: boolean;
}

const PREFIX = 'crawlkit-sealed:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Key ids of keys that live in one process's memory only start with this. */
const MEMORY_KEY = 'memory-';

/** Whether `value` is a value `SecretBox.seal` produced. */
export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/**
 * Reads a key given as text: 32 bytes in base64 (44 characters) or hex (64 characters).
 * @throws InvalidOptionError (`INVALID_OPTION`) for anything else.
 */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (bytes.length !== KEY_BYTES || (!/^[0-9a-f]{64}$/i.test(trimmed) && bytes.toString('base64') !== trimmed)) {
    throw new InvalidOptionError(
      'A secret key must be 32 random bytes in base64 (44 characters) or hex (64 characters); ' +
        "make one with `node -e \"console.log(require('node:crypto').randomBytes(32).toString('base64'))\"`.",
    );
  }
  return bytes;
}

/** A box on `key` (32 bytes, or their base64 or hex text), e.g. one shared by every process of a cluster. */
export function secretBox(key: Uint8Array | string): SecretBox {
  const bytes = typeof key === 'string' ? parseSecretKey(key) : Buffer.from(key);
  if (bytes.length !== KEY_BYTES) throw new InvalidOptionError('A secret key must be 32 bytes.');
  return new KeyBox(() => bytes, keyId(bytes));
}

/**
 * A box whose random key lives in this process's memory only and is never written anywhere: what it sealed can be
 * opened by this box alone, and by nothing once the process ends.
 */
export function memorySecretBox(): SecretBox {
  const key = randomBytes(KEY_BYTES);
  return new KeyBox(() => key, `${MEMORY_KEY}${randomBytes(4).toString('hex')}`);
}

/**
 * A box on the key kept in the file `dir/fileName`: created on the first `seal` (32 random bytes, mode 0600, written
 * atomically so that processes sharing the directory agree on one key), read on the first `open`.
 */
export function keyFileSecretBox(dir: string, fileName = 'secret.key'): SecretBox {
  const path = join(dir, fileName);
  let key: Buffer | undefined;
  const load = (create: boolean): Buffer => {
    if (key) return key;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        // The file system's reason (a directory in its place, a permission, an I/O error) is what to fix.
        throw new StoreError(
          'STORE_SECRET_KEY_MISSING',
          `Cannot read the secret key file ${path}: ${(error as Error).message}. The values sealed with it cannot be ` +
            'read until it can (the job that holds them cannot be resumed).',
          { cause: error },
        );
      }
      if (!create) {
        throw new StoreError(
          'STORE_SECRET_KEY_MISSING',
          `The secret key file ${path} is missing, so the values sealed with it cannot be read (was the store copied ` +
            'without it, or the file deleted?).',
        );
      }
      text = createKeyFile(dir, path);
    }
    try {
      key = parseSecretKey(text);
    } catch (error) {
      throw new StoreError('STORE_SECRET_KEY_MISSING', `The secret key file ${path} does not hold a 32-byte key.`, {
        cause: error,
      });
    }
    return key;
  };
  return new KeyBox(load, undefined);
}

/**
 * A box with no key: sealing is refused with `reason` (so that nothing is ever stored in plaintext instead), and so
 * is opening a sealed value.
 */
export function missingSecretBox(reason: string): SecretBox {
  const refuse = (): never => {
    throw new StoreError('STORE_SECRET_KEY_MISSING', reason);
  };
  return { seal: refuse, open: (value) => (isSealed(value) ? refuse() : value) };
}

class KeyBox implements SecretBox {
  readonly #key: (create: boolean) => Buffer;
  #id: string | undefined;
  readonly memoryOnly: boolean;

  constructor(key: (create: boolean) => Buffer, id: string | undefined) {
    this.#key = key;
    this.#id = id;
    this.memoryOnly = id?.startsWith(MEMORY_KEY) === true;
  }

  seal(value: string): string {
    const key = this.#key(true);
    const id = (this.#id ??= keyId(key));
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(id));
    const sealed = Buffer.concat([iv, cipher.update(value, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${id}:${sealed.toString('base64url')}`;
  }

  open(value: string): string {
    if (!isSealed(value)) return value;
    const rest = value.slice(PREFIX.length);
    const colon = rest.indexOf(':');
    const id = rest.slice(0, colon);
    const sealed = Buffer.from(rest.slice(colon + 1), 'base64url');
    if (colon <= 0 || sealed.length < IV_BYTES + TAG_BYTES) throw unreadable('it is not a sealed value');
    if (id.startsWith(MEMORY_KEY) && id !== this.#id) {
      throw unreadable(
        'it was sealed with a key that lived only in the memory of the engine that stored it (persistSecrets: false)',
      );
    }
    const key = this.#key(false);
    const ownId = (this.#id ??= keyId(key));
    if (id !== ownId) {
      throw unreadable(
        `it was sealed with another key (key id ${id}; this process has ${ownId}): every process sharing the store ` +
          'needs the same key',
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(id));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch (error) {
      throw unreadable('it was altered', error);
    }
  }
}

function unreadable(why: string, cause?: unknown): StoreError {
  return new StoreError('STORE_SECRET_UNREADABLE', `A sealed value cannot be opened: ${why}.`, { cause });
}

/** A short public name of a key (a hash prefix), stored beside each value to say which key sealed it. */
function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/** Writes a new key file; when another process got there first, its key wins. Returns the file's text. */
function createKeyFile(dir: string, path: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    // link() fails when the name exists: the first writer's key is the only one ever used.
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  return readFileSync(path, 'utf8');
}
