import {
  codeFormSchema,
  forgotPasswordFormSchema,
  parseSignInForm,
  registerFormSchema,
  registerFormSchemaFor,
  resetPasswordFormSchema,
  signInFormSchema,
  signInFormSchemaFor,
  welcomeFormSchema,
} from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';

describe('sign-in page forms', () => {
  it('reads every field as text: missing or a file is empty, so the page can be shown again', () => {
    const file = new File(['x'], 'x.txt');
    expect(parseSignInForm(signInFormSchema, { identifier: file })).toEqual({
      form: { identifier: '', password: '', agree: '' },
      error: 'required',
    });
    expect(parseSignInForm(signInFormSchema, { identifier: ' ada ', password: 'secret' })).toEqual({
      form: { identifier: ' ada ', password: 'secret', agree: '' },
      error: undefined,
    });
    expect(parseSignInForm(signInFormSchema, { identifier: '   ', password: 'secret' }).error).toBe('required');
  });

  it('trims names and addresses but never passwords', () => {
    const { form } = parseSignInForm(registerFormSchema, {
      username: ' alice ',
      email: ' a@b.co ',
      password: ' pw ',
      password_confirm: ' pw ',
    });
    expect(form).toEqual({
      username: 'alice',
      email: 'a@b.co',
      phone: '',
      password: ' pw ',
      password_confirm: ' pw ',
      agree: '',
    });
  });

  it("follows the tenant's sign-up fields and terms", () => {
    const emailOnly = registerFormSchemaFor({ username: false, email: 'required', password: false, terms: true });
    expect(parseSignInForm(emailOnly, { email: '' }).error).toBe('email_invalid');
    expect(parseSignInForm(emailOnly, { email: 'a@b.co' }).error).toBe('terms_required');
    expect(parseSignInForm(emailOnly, { email: 'a@b.co', agree: 'yes' }).error).toBeUndefined();
    const withTerms = signInFormSchemaFor({ terms: true });
    expect(parseSignInForm(withTerms, { identifier: 'ada', password: 'pw' }).error).toBe('terms_required');
    expect(parseSignInForm(withTerms, { identifier: 'ada', password: 'pw', agree: 'yes' }).error).toBeUndefined();
    expect(parseSignInForm(codeFormSchema, { code: '12 34 56' }).error).toBeUndefined();
    expect(parseSignInForm(codeFormSchema, { code: '12a456' }).error).toBe('reset_code_invalid');
  });

  it('reports the first rule broken, in the order of the page', () => {
    const register = (fields: Record<string, string>) => parseSignInForm(registerFormSchema, fields).error;
    expect(register({ username: 'bad name', email: 'nope', password: 'a', password_confirm: 'b' })).toBe(
      'username_invalid',
    );
    expect(register({ username: 'alice', email: 'nope', password: 'a', password_confirm: 'b' })).toBe('email_invalid');
    expect(register({ username: 'alice', email: '', password: 'a', password_confirm: 'b' })).toBe('password_mismatch');
    expect(register({ username: 'alice', email: '', password: 'a', password_confirm: 'a' })).toBeUndefined();

    const welcome = (fields: Record<string, string>) => parseSignInForm(welcomeFormSchema, fields).error;
    expect(welcome({ username: '', password: 'short', password_confirm: 'x' })).toBe('username_invalid');
    expect(welcome({ username: 'admin', password: 'short', password_confirm: 'x' })).toBe('password_too_short');
    expect(welcome({ username: 'admin', password: 'x'.repeat(257), password_confirm: 'x' })).toBe('password_too_short');
    expect(welcome({ username: 'admin', password: 'long enough', password_confirm: 'x' })).toBe('password_mismatch');

    expect(parseSignInForm(forgotPasswordFormSchema, { email: 'a@b' }).error).toBe('email_invalid');
    const reset = (fields: Record<string, string>) => parseSignInForm(resetPasswordFormSchema, fields).error;
    expect(reset({ email: 'a@b.co', code: ' ', password: 'p', password_confirm: 'q' })).toBe('reset_code_invalid');
    expect(reset({ email: 'a@b.co', code: '123456', password: 'p', password_confirm: 'q' })).toBe('password_mismatch');
  });
});
