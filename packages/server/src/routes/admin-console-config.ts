import { createRouter } from '../http/route-kit.ts';

/** The console's per-tenant config (`/configs/admin-console`); being built (issue 8). */
export const adminConsoleConfigRoutes = createRouter();
