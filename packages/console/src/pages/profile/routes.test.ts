import { createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { buildRoutes } from '../../app/routes.ts';

// The route table is under test: translations and the OIDC session are not.
vi.mock('../../i18n/index.ts', () => ({ loadNamespace: async () => undefined }));
vi.mock('../../auth/require-session.ts', () => ({ requireSession: async () => null }));

/** Which route paths match a URL, from the root down. */
function matchedPaths(edition: 'oss' | 'cloud', path: string): Array<string | undefined> {
  const router = createMemoryRouter(buildRoutes({ edition, devRoutes: [] }), {
    basename: '/console',
    initialEntries: [`/console${path}`],
  });
  const paths = router.state.matches.map((match) => match.route.path);
  router.dispose();
  return paths;
}

describe('profile routes (spec §2.1)', () => {
  it.each(['oss', 'cloud'] as const)('are tenant-less in %s, with their password sub-routes', (edition) => {
    expect(matchedPaths(edition, '/profile')).toEqual(['/', 'profile']);
    expect(matchedPaths(edition, '/profile/verify-password')).toEqual(['/', 'profile', 'verify-password']);
    expect(matchedPaths(edition, '/profile/change-password')).toEqual(['/', 'profile', 'change-password']);
    expect(matchedPaths(edition, '/profile/link-email')).toEqual(['/', 'profile', 'link-email']);
    expect(matchedPaths(edition, '/profile/verification-code')).toEqual(['/', 'profile', 'verification-code']);
  });

  it('is never read as a tenant id in cloud, while other first segments are', () => {
    expect(matchedPaths('cloud', '/profile')).not.toContain(':tenantId');
    expect(matchedPaths('cloud', '/profiles')).toContain(':tenantId');
  });

  it('shows page-not-found for an unknown sub-route', () => {
    expect(matchedPaths('oss', '/profile/link-phone').at(-1)).toBe('*');
  });
});
