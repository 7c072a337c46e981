import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectorFactories } from '../src/services/connectors/registry.ts';

// The console ships the logo files (drawn from its `connector-logos.ts`: a brand mark or a deliberate generic icon);
// the console's test keeps each file equal to its entry, this one keeps every factory pointing at one of them.
const consoleFiles = fileURLToPath(new URL('../../console/public/', import.meta.url));

describe('connector factory logos (issue 26)', () => {
  it('are files the console ships', () => {
    for (const factory of connectorFactories) {
      expect(factory.logo, factory.id).toMatch(/^\/console\/connectors\/[\w-]+\.svg$/);
      expect(existsSync(`${consoleFiles}${factory.logo.slice('/console/'.length)}`), factory.id).toBe(true);
    }
  });
});
