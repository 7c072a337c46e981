import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareVersions, fetchLatestRelease, newerRelease, releaseInfoSchema, versionParts } from './release-check.ts';

describe('version comparison (spec §5)', () => {
  it('compares the parts as numbers, not as text', () => {
    expect(compareVersions('v1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('1.9.9', 'v1.10.0')).toBe(-1);
    expect(compareVersions('v2.0.0', '10.0.0')).toBe(-1);
    expect(compareVersions('v1.25.0', '1.25.0')).toBe(0);
    expect(compareVersions('v1.25', '1.25.0')).toBe(0);
    expect(compareVersions('v1.25.0.1', '1.25.0')).toBe(1);
  });

  it('reads the numeric core and ignores a pre-release suffix', () => {
    expect(versionParts('v1.26.0-rc.1')).toEqual([1, 26, 0]);
    expect(versionParts('nightly')).toBeUndefined();
  });

  it('reports a release only when it is newer than the running version', () => {
    expect(newerRelease('v1.26.0', '1.25.0')).toBe('v1.26.0');
    expect(newerRelease('v1.25.0', '1.25.0')).toBeUndefined();
    expect(newerRelease('v1.24.9', '1.25.0')).toBeUndefined();
    expect(newerRelease('vnext', '1.25.0')).toBeUndefined();
  });

  it("requires latestRelease to be a string starting with 'v'", () => {
    expect(releaseInfoSchema.safeParse({ latestRelease: 'v1.26.0' }).success).toBe(true);
    expect(releaseInfoSchema.safeParse({ latestRelease: '1.26.0' }).success).toBe(false);
    expect(releaseInfoSchema.safeParse({ latestRelease: 126 }).success).toBe(false);
    expect(releaseInfoSchema.safeParse({}).success).toBe(false);
  });
});

describe('fetchLatestRelease', () => {
  afterEach(() => vi.restoreAllMocks());
  const answer = (ok: boolean, status: number, body: unknown) => async () => ({ ok, status, json: async () => body });

  it('returns latestRelease from a valid file', async () => {
    expect(await fetchLatestRelease('https://x/r.json', answer(true, 200, { latestRelease: 'v9.0.0' }))).toBe('v9.0.0');
  });

  it.each([
    ['an HTTP error', answer(false, 503, {})],
    ['a body without the v prefix', answer(true, 200, { latestRelease: '9.0.0' })],
    [
      'a network failure',
      async () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('only warns on %s', async (_case, fetchImpl) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(fetchLatestRelease('https://x/r.json', fetchImpl)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledOnce();
  });
});
