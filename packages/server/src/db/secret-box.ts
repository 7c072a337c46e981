import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Secrets the server must read back (custom JWT environment variables today) are stored encrypted, as envelopes: each
 * value has its own random data key (AES-256-GCM), and that key is stored wrapped by the master key (AES-256-GCM),
 * named by its id. The master key comes from SECRETS_KEY (32 bytes, base64); SECRETS_KEY_PREVIOUS keeps older
 * envelopes readable during a rotation (docs/security.md "Secrets at rest"). Without SECRETS_KEY the embedded default
 * generates one in DATA_DIR/secrets.key on first use (mode 0600).
 */

const ALGORITHM = 'aes-256-gcm';
const KEY_FILE = 'secrets.key';

type MasterKey = { id: string; key: KeyObject };

/** What is stored: versioned, naming the master key that wrapped the data key. */
type Envelope = { v: 1; kid: string; dek: string; iv: string; data: string };

export class SecretBoxError extends Error {}

const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 12);

function parseKey(value: string, name: string): MasterKey {
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== 32) throw new SecretBoxError(`${name} must be 32 bytes in base64 (openssl rand -base64 32)`);
  return { id: keyId(key), key: createSecretKey(key) };
}

/**
 * Values opened, by their stored envelope, so reading the same sealed value again (an application's internal secret on
 * every read of the application, each row of a list) is one lookup instead of two AES-GCM decryptions: they were 15 %
 * of the server's time answering the applications list (issue 38). An envelope's text names its master key and holds
 * its random data key and IV, so a value sealed again (rotation, a new secret) is another entry, and a tampered
 * envelope never matches one that opened. The master key that opens every value is in memory anyway. Bounded: the
 * oldest is dropped first.
 */
const OPENED_VALUES = 2_000;

function sealWith(plain: Buffer, key: Buffer | KeyObject): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  const data = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return `${iv.toString('base64url')}.${data.toString('base64url')}`;
}

function openWith(sealed: string, key: KeyObject): Buffer {
  const [iv = '', data = ''] = sealed.split('.');
  const bytes = Buffer.from(data, 'base64url');
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
}

export class SecretBox {
  readonly #current: MasterKey;
  readonly #byId: ReadonlyMap<string, MasterKey>;
  readonly #opened = new Map<string, string>();

  constructor(current: string, previous: readonly string[] = []) {
    this.#current = parseKey(current, 'SECRETS_KEY');
    const keys = [this.#current, ...previous.map((value) => parseKey(value, 'SECRETS_KEY_PREVIOUS'))];
    this.#byId = new Map(keys.map((key) => [key.id, key]));
  }

  /** The id of the master key new envelopes are sealed with (an envelope's text starts with it). */
  get keyId(): string {
    return this.#current.id;
  }

  encrypt(plain: string): string {
    const dataKey = randomBytes(32);
    const [iv, data] = sealWith(Buffer.from(plain, 'utf8'), dataKey).split('.');
    const envelope: Envelope = {
      v: 1,
      kid: this.#current.id,
      dek: sealWith(dataKey, this.#current.key),
      iv: iv ?? '',
      data: data ?? '',
    };
    return JSON.stringify(envelope);
  }

  decrypt(stored: string): string {
    const known = this.#opened.get(stored);
    if (known !== undefined) return known;
    const plain = this.#open(stored);
    if (this.#opened.size >= OPENED_VALUES) this.#opened.delete(this.#opened.keys().next().value ?? '');
    this.#opened.set(stored, plain);
    return plain;
  }

  #open(stored: string): string {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(stored) as Envelope;
    } catch {
      throw new SecretBoxError('not an envelope');
    }
    const master = this.#byId.get(envelope.kid);
    if (!master) throw new SecretBoxError(`the master key ${envelope.kid} is not configured (SECRETS_KEY_PREVIOUS)`);
    try {
      const dataKey = createSecretKey(openWith(envelope.dek, master.key));
      return openWith(`${envelope.iv}.${envelope.data}`, dataKey).toString('utf8');
    } catch {
      throw new SecretBoxError('the envelope does not open with its key (tampered or wrong key)');
    }
  }

  /** Whether `stored` was sealed with an older master key (a rotation re-encrypts it). */
  isStale(stored: string): boolean {
    try {
      return (JSON.parse(stored) as Envelope).kid !== this.#current.id;
    } catch {
      return false;
    }
  }
}

const boxes = new Map<string, SecretBox>();

/**
 * The process's box for a configuration: SECRETS_KEY when set, else the key file in DATA_DIR, created on first use.
 */
export function secretBoxFor(config: {
  secretsKey: string | undefined;
  secretsKeyPrevious: readonly string[];
  dataDir: string;
}): SecretBox {
  const cacheKey = `${config.secretsKey ?? `file:${config.dataDir}`}|${config.secretsKeyPrevious.join(',')}`;
  let box = boxes.get(cacheKey);
  if (!box) {
    box = new SecretBox(config.secretsKey ?? dataDirKey(config.dataDir), config.secretsKeyPrevious);
    boxes.set(cacheKey, box);
  }
  return box;
}

function dataDirKey(dataDir: string): string {
  const path = join(dataDir, KEY_FILE);
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const generated = randomBytes(32).toString('base64');
    try {
      // `wx`: a process racing this one keeps its own key only if it wrote first; both then read the file.
      writeFileSync(path, `${generated}\n`, { flag: 'wx', mode: 0o600 });
    } catch {
      // Written meanwhile by another process.
    }
    return readFileSync(path, 'utf8').trim();
  }
}

/**
 * The process's keyring for secrets stored by the data layer (signing keys, client and webhook secrets, connector
 * settings, SAML and TOTP keys: services/secrets-at-rest.ts). Set once at start-up from the configuration
 * (`createApp`, `main`, the CLI); reading or writing a secret before that is a programming error.
 */
let active: SecretBox | undefined;

export function useSecretBox(box: SecretBox): void {
  active = box;
}

export function activeSecretBox(): SecretBox {
  if (!active) throw new Error('No secrets key is configured: call useSecretBox at start-up');
  return active;
}

/** Whether a stored string is an envelope (else it is a value written before encryption at rest). */
export const isSealed = (stored: string): boolean => stored.startsWith('{"v":1,');

/** Seals a secret for storage. */
export const seal = (plain: string): string => activeSecretBox().encrypt(plain);

/** Opens a stored secret; a value stored before encryption at rest is answered as it is (and sealed at start-up). */
export const unseal = (stored: string): string => (isSealed(stored) ? activeSecretBox().decrypt(stored) : stored);
