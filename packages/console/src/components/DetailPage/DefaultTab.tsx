import { Navigate, type RouteObject } from 'react-router';

/**
 * Spec §2.2: '{id}' redirects to the default tab. Replace, so Back skips the bare '{id}' (which would only redirect
 * again); relative, so it works under any tenant prefix.
 */
export function defaultTabRoute(tab: string): RouteObject {
  return { index: true, element: <Navigate to={tab} replace /> };
}
