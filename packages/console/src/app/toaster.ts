import { createToaster } from '../components/Toast/toaster.ts';

/** The console's one toast list: the query client's error handler and the pages share it. */
export const toaster = createToaster();
