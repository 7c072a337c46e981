import type { MiddlewareHandler } from 'hono';
import { NONCE, secureHeaders } from 'hono/secure-headers';

type CspSources = NonNullable<NonNullable<Parameters<typeof secureHeaders>[0]>['contentSecurityPolicy']>['styleSrc'];

const headersWithStyleSources = (styleSrc: CspSources) =>
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc,
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'strict-origin-when-cross-origin',
    strictTransportSecurity: 'max-age=31536000; includeSubDomains',
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: 'same-origin',
  });

/** The JSON APIs: no page of theirs has inline style, so no nonce (16 random bytes per response saved). */
const isApiPath = (path: string) => path.startsWith('/api/') || path.startsWith('/m/');

/**
 * Security headers on every response. The CSP allows no inline script and no framing; inline style only with the
 * response's nonce (the console's code editor injects its stylesheet with it; see console-static.ts), which pages
 * get and the JSON APIs do not. `img-src` also allows https: and data: for logos and avatars that tenants host
 * elsewhere.
 */
export const securityHeaders = (): MiddlewareHandler => {
  const pages = headersWithStyleSources(["'self'", NONCE]);
  const api = headersWithStyleSources(["'self'"]);
  return (c, next) => (isApiPath(c.req.path) ? api(c, next) : pages(c, next));
};
