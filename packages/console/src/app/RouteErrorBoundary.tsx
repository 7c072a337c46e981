import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ApiError } from '../api/client.ts';
import { SessionExpiredError } from '../auth/session.ts';
import { handleSessionExpired } from '../auth/session-errors.ts';
import { NotFound } from '../components/NotFound/NotFound.tsx';
import { clearAllTokens } from './clear-tokens.ts';
import { ErrorPage, type ErrorPageProps } from './ErrorPage.tsx';

/** Spec §4: these mean the session is gone or unusable, so the answer is a fresh sign-in, not an error page. */
const sessionErrorCodes = new Set(['invalid_grant', 'invalid_target', 'oidc.invalid_grant', 'oidc.invalid_target']);

export function isSessionError(error: unknown): boolean {
  if (error instanceof SessionExpiredError) return true;
  if (error instanceof ApiError) return error.status === 401;
  if (typeof error === 'object' && error !== null && 'error' in error && typeof error.error === 'string') {
    return sessionErrorCodes.has(error.error); // oidc-client-ts ErrorResponse
  }
  return false;
}

export function describeError(error: unknown): Omit<ErrorPageProps, 'onRetry'> {
  if (isRouteErrorResponse(error)) return { code: String(error.status), message: error.statusText || undefined };
  if (error instanceof ApiError)
    return { code: error.code ?? String(error.status), message: error.message, stack: error.stack };
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  return { message: String(error) };
}

/** Spec §2.11: retry clears every token and reloads, so the console starts over from a clean session. */
export function retryFromScratch(): void {
  clearAllTokens();
  window.location.reload();
}

function SignInAgain() {
  useEffect(() => {
    void handleSessionExpired();
  }, []);
  return null;
}

/** The error page of spec §2.11/§4; a 404 shows page-not-found, a lost session signs in again. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isSessionError(error)) return <SignInAgain />;
  return <ErrorPage {...describeError(error)} onRetry={retryFromScratch} />;
}
