import { isBuiltInResourceIndicator } from '@gatehouse/schemas';

/**
 * Indicators under our internal domain belong to built-in APIs (seeded, read-only). Nobody may
 * create one: a tenant's own resource with such an audience could be mistaken for the real API.
 * The rule lives in the schemas package, so the console marks the same resources read-only.
 */
export const isBuiltInIndicator = isBuiltInResourceIndicator;
