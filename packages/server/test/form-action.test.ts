import { describe, expect, it } from 'vitest';
import { formActionSource, withFormActionSource } from '../src/shared/form-action.ts';

describe('form-action sources of sign-in and sign-out pages', () => {
  it('takes the origin of an http(s) redirect URI and the scheme of a native one', () => {
    expect(formActionSource('https://shop.example.com/callback?x=1')).toBe('https://shop.example.com');
    expect(formActionSource('http://localhost:3000/cb')).toBe('http://localhost:3000');
    expect(formActionSource('com.example.app:/oauth')).toBe('com.example.app:');
    expect(formActionSource('')).toBeUndefined();
    expect(formActionSource(undefined)).toBeUndefined();
    expect(formActionSource('not a url')).toBeUndefined();
  });

  it('adds the source to form-action only, once, and leaves a policy without it unchanged', () => {
    const policy = "default-src 'self'; form-action 'self'; frame-ancestors 'none'";
    const added = withFormActionSource(policy, 'https://shop.example.com');
    expect(added).toBe("default-src 'self'; form-action 'self' https://shop.example.com; frame-ancestors 'none'");
    expect(withFormActionSource(added, 'https://shop.example.com')).toBe(added);
    expect(withFormActionSource(policy, undefined)).toBe(policy);
    expect(withFormActionSource("default-src 'self'", 'https://a.example')).toBe("default-src 'self'");
    expect(withFormActionSource("form-action 'self'", 'https://a.example')).toBe(
      "form-action 'self' https://a.example",
    );
  });
});
