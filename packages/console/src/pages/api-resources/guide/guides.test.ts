import { describe, expect, it } from 'vitest';
import { findGuide, type GuideValues, guides, shellQuote, tryItCommands } from './guides.ts';

const values: GuideValues = {
  indicator: 'https://orders.example.com/api',
  issuer: 'http://localhost:3001/oidc',
  jwksUri: 'http://localhost:3001/oidc/jwks',
  tokenEndpoint: 'http://localhost:3001/oidc/token',
  permission: 'read:orders',
};

describe('guides', () => {
  it.each(guides.map((guide) => [guide.id, guide] as const))(
    '%s fills in the audience, issuer, keys and permission',
    (_id, guide) => {
      const code = guide.code(values);
      expect(code).toContain('"https://orders.example.com/api"');
      expect(code).toContain('"http://localhost:3001/oidc"');
      expect(code).toContain('"http://localhost:3001/oidc/jwks"');
      expect(code).toContain('"read:orders"');
      expect(code).toContain('RS256');
    },
  );

  it('quotes values as string literals, so a quote in an identifier cannot end the string', () => {
    const code = findGuide('express')?.code({ ...values, indicator: 'urn:x:"quoted"' }) ?? '';
    expect(code).toContain('const audience = "urn:x:\\"quoted\\"";');
  });

  it('has unique ids and finds none for an unknown id', () => {
    expect(new Set(guides.map((guide) => guide.id)).size).toBe(guides.length);
    expect(findGuide('cobol')).toBeUndefined();
    expect(findGuide(undefined)).toBeUndefined();
  });
});

describe('tryItCommands', () => {
  it('requests a token for this API with client credentials at the token endpoint', () => {
    const commands = tryItCommands(values);
    expect(commands).toContain("--data-urlencode 'resource=https://orders.example.com/api'");
    expect(commands).toContain("--data-urlencode 'scope=read:orders'");
    expect(commands).toContain("'http://localhost:3001/oidc/token'");
  });

  it('single-quotes shell words so nothing inside them is expanded', () => {
    expect(shellQuote('a$b`c')).toBe("'a$b`c'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });
});
