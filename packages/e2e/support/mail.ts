import { expect } from '@playwright/test';
import { mailSinkUrl } from '../playwright.config.ts';

export type ReceivedMail = { to: string[]; subject: string; text: string; html: string; receivedAt: number };

/** The messages the local mail sink received for `to`, oldest first. */
export async function mailTo(to: string): Promise<ReceivedMail[]> {
  const response = await fetch(`${mailSinkUrl}/messages?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`mail sink answered ${response.status}`);
  return (await response.json()) as ReceivedMail[];
}

/** Waits (the mail worker sends in the background) until `to` has received `count` messages, and returns the newest. */
export async function waitForMail(to: string, count = 1): Promise<ReceivedMail> {
  let messages: ReceivedMail[] = [];
  await expect
    .poll(
      async () => {
        messages = await mailTo(to);
        return messages.length;
      },
      { timeout: 20_000, message: `an email to ${to}` },
    )
    .toBeGreaterThanOrEqual(count);
  return messages[messages.length - 1] as ReceivedMail;
}

/** The first link of a message's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const link = `${mail.text}\n${mail.html}`.match(/https?:\/\/[^\s"'<>]+/g)?.find((url) => url.startsWith(prefix));
  if (!link) throw new Error(`no link starting with ${prefix} in "${mail.subject}"`);
  return link;
}

/**
 * A code mail (sign-up, sign-in, an account proving its email) ends its subject with a colon and the 6 digits, in every
 * language ('Your verification code: 123456'); an invitation's ends with a name, which may end in digits.
 */
function codeOf(mail: ReceivedMail): string | undefined {
  return /[:：]\s*(\d{6})$/.exec(mail.subject.trim())?.[1];
}

/**
 * Waits until `to` has received `count` code mails (other mail, such as an invitation, does not count) and returns the
 * code of the newest.
 */
export async function waitForCode(to: string, count = 1): Promise<string> {
  let codes: string[] = [];
  await expect
    .poll(
      async () => {
        codes = (await mailTo(to)).flatMap((mail) => codeOf(mail) ?? []);
        return codes.length;
      },
      { timeout: 20_000, message: `a code mailed to ${to}` },
    )
    .toBeGreaterThanOrEqual(count);
  return codes[codes.length - 1] as string;
}
