import { createRouter } from '../http/route-kit.ts';

/** Custom domains of a tenant (`/domains`); being built (issue 8). */
export const domainsRoutes = createRouter();
