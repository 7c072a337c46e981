import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration from the environment', () => {
  it('has documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3001,
      dataDir: resolve('./data'),
      databaseUrl: undefined,
      edition: 'oss',
      publicUrl: 'http://localhost:3001',
      logLevel: 'info',
      admin: undefined,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '4000',
      DATA_DIR: '/tmp/gh',
      DATABASE_URL: 'postgres://u@db:5432/gatehouse',
      EDITION: 'cloud',
      PUBLIC_URL: 'https://id.example.com/',
      LOG_LEVEL: 'debug',
      ADMIN_USERNAME: 'root_admin',
      ADMIN_PASSWORD: 'long-enough-secret',
    });
    expect(config).toMatchObject({
      port: 4000,
      dataDir: '/tmp/gh',
      databaseUrl: 'postgres://u@db:5432/gatehouse',
      edition: 'cloud',
      publicUrl: 'https://id.example.com',
      logLevel: 'debug',
      admin: { username: 'root_admin', password: 'long-enough-secret' },
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3001, databaseUrl: undefined });
  });

  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT .*\(got "abc"\)$/],
    [{ PORT: '70000' }, /^Invalid configuration: PORT /],
    [{ EDITION: 'enterprise' }, /^Invalid configuration: EDITION /],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must be a postgres:\/\/ URL/],
    [{ PUBLIC_URL: 'not a url' }, /^Invalid configuration: PUBLIC_URL /],
    [{ PUBLIC_URL: 'ftp://x.example' }, /^Invalid configuration: PUBLIC_URL /],
    [{ LOG_LEVEL: 'loud' }, /^Invalid configuration: LOG_LEVEL /],
    [{ ADMIN_USERNAME: 'admin' }, /^Invalid configuration: ADMIN_PASSWORD must be set together with ADMIN_USERNAME/],
    [{ ADMIN_PASSWORD: 'secret-secret' }, /^Invalid configuration: ADMIN_USERNAME must be set together/],
    [{ ADMIN_USERNAME: '9lives', ADMIN_PASSWORD: 'secret-secret' }, /^Invalid configuration: ADMIN_USERNAME /],
    [{ ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'short' }, /^Invalid configuration: ADMIN_PASSWORD must be at least 8/],
  ])('rejects %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrowError(ConfigError);
    expect(() => loadConfig(env)).toThrowError(message);
  });

  it('never prints the admin password', () => {
    expect(() => loadConfig({ ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'tiny' })).not.toThrowError(/tiny/);
  });
});
