import { defaultSignInExperience } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { signInLook } from '../src/auth/sign-in-look.ts';
import { renderRegisterPage, renderSignInPage } from '../src/auth/sign-in-page.ts';
import { renderInvitation } from '../src/services/email-templates.ts';
import { dangerouslyTrustHtml, html, page, SafeHtml } from '../src/shared/html.ts';

const payloads = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  '</title><script>alert(1)</script>',
  '&lt;already escaped&gt;',
];

describe('html templates', () => {
  it('escapes text between tags', () => {
    expect(html`<p>${'<script>alert("x")</script>'}</p>`.toString()).toBe(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>',
    );
    expect(html`<p>${'Tom & Jerry'}</p>`.toString()).toBe('<p>Tom &amp; Jerry</p>');
  });

  it('keeps every payload inside its quoted attribute and its element', () => {
    for (const payload of payloads) {
      const markup = html`<input value="${payload}" title='${payload}'><p>${payload}</p>`.toString();
      // Only the template's own tags and quotes remain: attribute values end where the template says, and no tag
      // or handler of the payload's begins.
      expect(markup.match(/</g)?.length, payload).toBe(3);
      expect(markup.match(/>/g)?.length, payload).toBe(3);
      expect(markup.match(/"/g)?.length, payload).toBe(2);
      expect(markup.match(/'/g)?.length, payload).toBe(2);
    }
  });

  it('escapes already escaped text again: only SafeHtml passes as it is', () => {
    expect(html`${'&amp;'}`.toString()).toBe('&amp;amp;');
    expect(html`${html`<b>${'&'}</b>`}`.toString()).toBe('<b>&amp;</b>');
  });

  it('joins lists, prints numbers, and renders nothing for null, undefined and false', () => {
    const items = ['a<', 'b>'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>`.toString()).toBe('<ul><li>a&lt;</li><li>b&gt;</li></ul>');
    expect(html`${['<', ['>', html`<br>`]]}`.toString()).toBe('&lt;&gt;<br>');
    expect(html`<p>${null}${undefined}${false}${0}${12.5}</p>`.toString()).toBe('<p>012.5</p>');
  });

  it('refuses a value in an unquoted attribute', () => {
    expect(() => html`<input value=${'x onfocus=alert(1)'}>`).toThrow(/quote the attribute/);
    // A query string inside a quoted attribute is fine.
    expect(html`<a href="/page?screen=${'a&b'}">x</a>`.toString()).toBe('<a href="/page?screen=a&amp;b">x</a>');
  });

  it('takes trusted markup as it is, through the one escape hatch', () => {
    expect(html`<script>${dangerouslyTrustHtml('document.forms[0].submit()')}</script>`.toString()).toBe(
      '<script>document.forms[0].submit()</script>',
    );
    expect(dangerouslyTrustHtml('<b>')).toBeInstanceOf(SafeHtml);
  });

  it('cannot be forged: a look-alike object is text', () => {
    const forged = { toString: () => '<script>alert(1)</script>' } as unknown as string;
    expect(html`${forged}`.toString()).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('frames a page with its language, direction, title and body', () => {
    const markup = page({
      language: 'ar',
      title: '<T>',
      stylesheet: '/a.css',
      noindex: true,
      body: html`<p>${'x'}</p>`,
    }).toString();
    expect(markup).toContain('<html lang="ar" dir="rtl">');
    expect(markup).toContain('<meta name="robots" content="noindex"><title>&lt;T&gt;</title>');
    expect(markup).toContain('<h1>&lt;T&gt;</h1>\n<p>x</p>\n</main>');
    expect(page({ language: 'en', title: 't', stylesheet: '/a.css', body: html`` }).toString()).not.toContain('robots');
  });
});

describe('pages and emails built on it', () => {
  it('escapes what a visitor typed, in the sign-in and sign-up forms', () => {
    for (const payload of payloads) {
      // What tenants and applications write reaches the pages too: the app's name, custom phrases, terms URLs.
      const look = signInLook({
        language: 'en',
        settings: {
          ...defaultSignInExperience,
          termsOfUseUrl: `https://example.com/?q=${encodeURIComponent(payload)}`,
          supportEmail: 'help@example.com',
        },
        name: payload,
        phrases: { create_account: payload, terms_of_use: payload },
      });
      const signIn = renderSignInPage(look, {
        action: '/a/login',
        identifierLabel: payload,
        identifier: payload,
        error: payload,
        registerHref: '/a?screen=register',
      });
      const register = renderRegisterPage(look, {
        action: '/a/register',
        fields: { username: true, email: 'optional', password: true },
        signInHref: '/a',
        username: payload,
        email: payload,
        error: payload,
      });
      // Our own script file (auth/sign-in-script.ts) is the one script element a page may have.
      const ours = /<script src="\/interaction\/assets\/sign-in\.js\?v=[0-9a-f]{12}" defer><\/script>/;
      for (const markup of [signIn.toString(), register.toString()].map((page) => page.replace(ours, ''))) {
        expect(markup, payload).not.toMatch(/<(script|img)\b/);
        expect(markup, payload).not.toContain(payload);
      }
    }
  });

  it('escapes names and links in the HTML part of an email and leaves the text part as written', () => {
    const email = renderInvitation('en', {
      organization: '<b>Acme</b>',
      inviter: '"Eve"',
      link: 'https://example.com/?a=1&b="><script>',
      expiresAt: 0,
    });
    expect(email.html).toContain('&lt;b&gt;Acme&lt;/b&gt;');
    expect(email.html).toContain('href="https://example.com/?a=1&amp;b=&quot;&gt;&lt;script&gt;"');
    expect(email.html).not.toMatch(/<(script|b)>/);
    expect(email.text).toContain('<b>Acme</b>');
    expect(email.subject).toContain('<b>Acme</b>');
  });
});
