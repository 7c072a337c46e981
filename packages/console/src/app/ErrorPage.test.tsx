// @vitest-environment happy-dom
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client.ts';
import { renderWithI18n } from '../components/testing/render.tsx';
import { clearAllTokens } from './clear-tokens.ts';
import { ErrorPage } from './ErrorPage.tsx';
import { describeError, isSessionError } from './RouteErrorBoundary.tsx';
import { hasSecureCrypto } from './secure-context.ts';

describe('ErrorPage (spec §2.11)', () => {
  it('shows the title, code, message, the call stack behind More details, and a retry', () => {
    const onRetry = vi.fn();
    renderWithI18n(
      <ErrorPage code={'oidc.bad'} message={'It broke'} stack={'Error: It broke\n  at here'} onRetry={onRetry} />,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Something went wrong');
    expect(screen.getByText('oidc.bad')).toBeTruthy();
    expect(screen.getByText('It broke')).toBeTruthy();
    const details = screen.getByText('More details').closest('details');
    expect(details?.open).toBe(false);
    fireEvent.click(screen.getByText('More details'));
    expect(details?.textContent).toContain('at here');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('describes API errors by code and other errors by message and stack', () => {
    expect(describeError(new ApiError(500, 'Boom', 'request.general'))).toMatchObject({
      code: 'request.general',
      message: 'Boom',
    });
    const error = new Error('Chunk failed');
    expect(describeError(error)).toEqual({ message: 'Chunk failed', stack: error.stack });
    expect(describeError('text')).toEqual({ message: 'text' });
  });

  it('treats 401 and spent OIDC grants as session errors, other failures not', () => {
    expect(isSessionError(new ApiError(401, 'x'))).toBe(true);
    expect(isSessionError({ error: 'invalid_grant' })).toBe(true);
    expect(isSessionError({ error: 'invalid_target' })).toBe(true);
    expect(isSessionError(new ApiError(403, 'x'))).toBe(false);
    expect(isSessionError(new Error('x'))).toBe(false);
  });
});

describe('clearAllTokens', () => {
  it('removes every OIDC key from both storages and nothing else', () => {
    sessionStorage.setItem('oidc.user:https://issuer:client', '{}');
    localStorage.setItem('oidc.abc', '{}');
    localStorage.setItem('gatehouse:language', 'de');
    clearAllTokens();
    expect(sessionStorage.getItem('oidc.user:https://issuer:client')).toBeNull();
    expect(localStorage.getItem('oidc.abc')).toBeNull();
    expect(localStorage.getItem('gatehouse:language')).toBe('de');
  });
});

describe('hasSecureCrypto', () => {
  it('needs a secure context with crypto.subtle', () => {
    expect(hasSecureCrypto({ isSecureContext: true, crypto: { subtle: {} } })).toBe(true);
    expect(hasSecureCrypto({ isSecureContext: false, crypto: { subtle: {} } })).toBe(false);
    expect(hasSecureCrypto({ isSecureContext: true, crypto: {} })).toBe(false);
  });
});
