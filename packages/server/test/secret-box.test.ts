import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { SecretBox, SecretBoxError, secretBoxFor } from '../src/db/secret-box.ts';

/** Secrets at rest (db/secret-box.ts): envelopes, rotation, tampering, the generated key file. */

const key = () => randomBytes(32).toString('base64');

describe('the secret box', () => {
  it('seals each value with its own data key and opens it again', () => {
    const box = new SecretBox(key());
    const one = box.encrypt('sk-live-123');
    const two = box.encrypt('sk-live-123');
    expect(one).not.toContain('sk-live-123');
    expect(one).not.toBe(two);
    expect(box.decrypt(one)).toBe('sk-live-123');
    expect(box.decrypt(box.encrypt(''))).toBe('');
    expect(box.decrypt(box.encrypt('ключ 🔑'))).toBe('ключ 🔑');
  });

  it('reads envelopes of a previous key during a rotation, and says they are stale', () => {
    const old = key();
    const sealed = new SecretBox(old).encrypt('v1');
    const rotated = new SecretBox(key(), [old]);
    expect(rotated.decrypt(sealed)).toBe('v1');
    expect(rotated.isStale(sealed)).toBe(true);
    expect(rotated.isStale(rotated.encrypt('v2'))).toBe(false);
    expect(() => new SecretBox(key()).decrypt(sealed)).toThrow(SecretBoxError);
  });

  it('refuses a tampered envelope, also after the original was opened (and kept)', () => {
    const box = new SecretBox(key());
    const sealed = box.encrypt('secret');
    expect(box.decrypt(sealed)).toBe('secret');
    expect(box.decrypt(sealed), 'opened again from what it kept').toBe('secret');
    const envelope = JSON.parse(sealed) as { data: string };
    const flipped = Buffer.from(envelope.data, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => box.decrypt(JSON.stringify({ ...envelope, data: flipped.toString('base64url') }))).toThrow(
      SecretBoxError,
    );
    expect(() => box.decrypt('not json')).toThrow(SecretBoxError);
  });

  it('generates a private key file in DATA_DIR when SECRETS_KEY is unset, and reuses it', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-secrets-'));
    try {
      const sealed = secretBoxFor({ secretsKey: undefined, secretsKeyPrevious: [], dataDir }).encrypt('x');
      const file = join(dataDir, 'secrets.key');
      expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(new SecretBox(readFileSync(file, 'utf8')).decrypt(sealed)).toBe('x');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a malformed SECRETS_KEY or fetch allow-list at start-up, without echoing the key', () => {
    expect(() => loadConfig({ SECRETS_KEY: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ SECRETS_KEY: 'short' })).not.toThrow(/short/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SECRETS_KEY must be set when NODE_ENV=production/);
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: key() }).secretsKey).toEqual(expect.any(String));
    expect(() => loadConfig({ CUSTOM_JWT_FETCH_ALLOW_LIST: 'https://api.example.com/path' })).toThrow(
      /CUSTOM_JWT_FETCH_ALLOW_LIST/,
    );
    expect(
      loadConfig({ CUSTOM_JWT_FETCH_ALLOW_LIST: 'https://a.example.com, http://127.0.0.1:8080' }).customJwt,
    ).toEqual({ fetchAllowList: ['https://a.example.com', 'http://127.0.0.1:8080'] });
  });
});
