import { resolve } from 'node:path';

/**
 * The server's source folder (packages/server/src), whether this code runs from src/*.ts or from the
 * bundle in dist/ (`npm start`): both sit one level under the package. Files read at run time
 * (migrations, page strings) stay in src and are found from here.
 */
export const sourceDir = resolve(import.meta.dirname, '..', 'src');
