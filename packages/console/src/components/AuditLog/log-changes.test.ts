import { redactSecrets } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { changeValueText, logChanges } from './log-changes.ts';

const shown = { isHidden: false };

describe('logChanges', () => {
  it('reads the write path’s changes as added, removed and changed values', () => {
    const payload = {
      result: 'Success' as const,
      changes: [
        { field: 'name', before: null, after: 'Ada' },
        { field: 'description', before: 'Old', after: null },
        { field: 'isSuspended', before: false, after: true },
        { field: 'redirectUris', before: ['a'], after: ['a', 'b'] },
      ],
    };
    expect(logChanges(payload, '[hidden]')).toEqual([
      { field: 'name', kind: 'added', before: '', after: 'Ada', ...shown },
      { field: 'description', kind: 'removed', before: 'Old', after: '', ...shown },
      { field: 'isSuspended', kind: 'changed', before: 'false', after: 'true', ...shown },
      { field: 'redirectUris', kind: 'changed', before: '["a"]', after: '["a","b"]', ...shown },
    ]);
  });

  it('unfolds nested JSON into the paths that differ', () => {
    const payload = {
      result: 'Success' as const,
      changes: [
        {
          field: 'customData',
          before: { plan: 'free', limits: { seats: 3, apps: 1 }, gone: true },
          after: { plan: 'pro', limits: { seats: 3, apps: 5 }, region: 'eu' },
        },
      ],
    };
    expect(logChanges(payload, '[hidden]')).toEqual([
      { field: 'customData.gone', kind: 'removed', before: 'true', after: '', ...shown },
      { field: 'customData.limits.apps', kind: 'changed', before: '1', after: '5', ...shown },
      { field: 'customData.plan', kind: 'changed', before: 'free', after: 'pro', ...shown },
      { field: 'customData.region', kind: 'added', before: '', after: 'eu', ...shown },
    ]);
  });

  it('never shows the value of a secret, at any depth, but keeps the server’s markers', () => {
    const payload = {
      result: 'Success' as const,
      changes: [
        { field: 'secret', before: 'abc', after: 'def' },
        { field: 'config', before: { headers: { Authorization: 'Bearer x' } }, after: { headers: {} } },
        { field: 'password', before: 'set', after: 'changed' },
        { field: 'customClientMetadata', before: { refreshTokenTtl: 1 }, after: { refreshTokenTtl: 2 } },
      ],
    };
    expect(logChanges(payload, '[hidden]')).toEqual([
      { field: 'secret', kind: 'changed', before: '', after: '', isHidden: true },
      { field: 'config.headers.Authorization', kind: 'removed', before: '', after: '', isHidden: true },
      { field: 'password', kind: 'changed', before: 'set', after: 'changed', isHidden: false },
      { field: 'customClientMetadata.refreshTokenTtl', kind: 'changed', before: '1', after: '2', ...shown },
    ]);
  });

  it('redacts values shown whole by the payload’s rule: only secrets, also inside lists and added objects', () => {
    const payload = {
      result: 'Success' as const,
      changes: [
        {
          field: 'keys',
          before: [{ id: 'k1', signingKeyAlgorithm: 'RSA' }],
          after: [{ id: 'k2', signingKeyAlgorithm: 'EC' }],
        },
        { field: 'config', before: null, after: { url: 'https://x', headers: { Authorization: 'Bearer abc' } } },
      ],
    };
    const changes = logChanges(payload, '[hidden]');
    expect(changes).toEqual([
      {
        field: 'keys',
        kind: 'changed',
        before: '[{"id":"k1","signingKeyAlgorithm":"RSA"}]',
        after: '[{"id":"k2","signingKeyAlgorithm":"EC"}]',
        ...shown,
      },
      {
        field: 'config',
        kind: 'added',
        before: '',
        after: '{"url":"https://x","headers":{"Authorization":"[hidden]"}}',
        ...shown,
      },
    ]);
    // The raw payload agrees value for value.
    expect(JSON.stringify(redactSecrets(payload, '[hidden]').changes)).toBe(
      JSON.stringify(
        changes.map((change) => ({
          field: change.field,
          before: change.before ? JSON.parse(change.before) : null,
          after: JSON.parse(change.after),
        })),
      ),
    );
  });

  it('says a field changed when only its redacted values did', () => {
    const payload = {
      result: 'Success' as const,
      changes: [
        {
          field: 'customData',
          before: { apiKey: '[redacted]', plan: 'pro' },
          after: { apiKey: '[redacted]', plan: 'pro' },
        },
      ],
    };
    expect(logChanges(payload, '[hidden]')).toEqual([
      { field: 'customData', kind: 'changed', before: '', after: '', isHidden: true },
    ]);
    // Nothing secret in it: an entry whose values do not differ shows nothing.
    expect(
      logChanges({ result: 'Success', changes: [{ field: 'plan', before: null, after: null }] }, '[hidden]'),
    ).toEqual([]);
  });

  it('is empty without changes and skips entries of another shape', () => {
    expect(logChanges({ result: 'Error' }, '[hidden]')).toEqual([]);
    expect(logChanges({ result: 'Success', changes: 'name' }, '[hidden]')).toEqual([]);
    expect(
      logChanges({ result: 'Success', changes: [7, { before: 1 }, { field: 'a', after: 0 }] }, '[hidden]'),
    ).toEqual([{ field: 'a', kind: 'added', before: '', after: '0', ...shown }]);
  });
});

describe('redactSecrets', () => {
  it('replaces secret-named values at any depth and leaves the rest', () => {
    const payload = {
      result: 'Success',
      after: { name: 'App', secret: 's3cr3t', config: { signingKey: 'k', url: 'https://x' } },
      changes: [
        { field: 'password', before: 'set', after: 'changed' },
        { field: 'secret', before: 'old', after: 'new' },
      ],
    };
    expect(redactSecrets(payload, '[hidden]')).toEqual({
      result: 'Success',
      after: { name: 'App', secret: '[hidden]', config: { signingKey: '[hidden]', url: 'https://x' } },
      changes: [
        { field: 'password', before: 'set', after: 'changed' },
        { field: 'secret', before: '[hidden]', after: '[hidden]' },
      ],
    });
  });
});

describe('changeValueText', () => {
  it('keeps strings, writes other values as JSON and none as empty', () => {
    expect(changeValueText('a "b"')).toBe('a "b"');
    expect(changeValueText(['x'])).toBe('["x"]');
    expect(changeValueText(undefined)).toBe('');
    expect(changeValueText(0)).toBe('0');
    expect(changeValueText('')).toBe('""');
  });
});
