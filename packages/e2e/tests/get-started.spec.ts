import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { consolePath, expectHeading } from '../support/console.ts';
import { managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { waitForShell } from '../support/shell.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the tests then save what they saw there.

async function snap(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${edition}-get-started-${name}.png`, fullPage: true });
}

function step(page: Page, title: string): Locator {
  return page.getByRole('list', { name: 'Setup steps' }).getByRole('listitem').filter({ hasText: title });
}

/** 'N of 8 steps done', read from the progress bar. */
async function doneCount(page: Page): Promise<number> {
  return Number(await page.getByRole('progressbar').getAttribute('aria-valuenow'));
}

test.describe('get started', () => {
  test.beforeEach(() => test.slow());

  test('a step is ticked once the thing exists, and the progress counts it', async ({ page }) => {
    await openSignedIn(page, consolePath('get-started'));
    await waitForShell(page);
    await expectHeading(page, 'Get started');
    const organization = step(page, 'Create an organization');
    // Every step has been read before the count is taken.
    await expect(page.getByText('Checking…', { exact: true })).toHaveCount(0);
    const before = await doneCount(page);
    await expect(page.getByText(`${before} of 8 steps done`)).toBeVisible();

    // Organizations are the one step no other spec of this run fills in before this one.
    const wasDone = (await organization.textContent())?.includes('Done') ?? false;
    test.skip(wasDone, 'the data directory already has an organization');
    await expect(organization).toContainText('To do');
    await expect(organization.getByRole('link', { name: 'Create an organization' })).toBeVisible();
    await snap(page, 'before');

    const api = await managementApiAs(page);
    await api.post('/organizations', { name: `Getting started ${randomBytes(4).toString('hex')}` });
    // Back on the page (through the sidebar, without a reload), the step reads the tenant again.
    await page.getByRole('navigation').getByRole('link', { name: 'Roles' }).click();
    await expectHeading(page, 'Roles');
    await page.getByRole('navigation').getByRole('link', { name: 'Get started' }).click();
    await expect(organization).toContainText('Done');
    await expect(organization.getByRole('link', { name: 'View organizations' })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(before + 1));
    await expect(page.getByText(`${before + 1} of 8 steps done`)).toBeVisible();
    await snap(page, 'after');
  });

  test('every step links to its page', async ({ page }) => {
    await openSignedIn(page, consolePath('get-started'));
    await waitForShell(page);
    const steps = page.getByRole('list', { name: 'Setup steps' }).getByRole('listitem');
    await expect(steps).toHaveCount(8);
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', /\d/);
    await expect(page.getByText('Checking…')).toHaveCount(0);
    const links = await steps
      .getByRole('link')
      .evaluateAll((elements) =>
        elements.map((element) => ({ name: element.textContent ?? '', href: element.getAttribute('href') ?? '' })),
      );
    expect(links).toHaveLength(8);
    for (const link of links) {
      await page.getByRole('list', { name: 'Setup steps' }).getByRole('link', { name: link.name }).click();
      await expect(page, `${link.name} goes to ${link.href}`).toHaveURL(
        (url) => `${url.pathname}${url.search}` === link.href,
      );
      await expect(page.getByRole('heading', { level: 1 }).first(), `${link.name} opens a page`).not.toHaveText(
        /page not found|Get started/i,
      );
      // Back (which also closes a create dialog) returns to the checklist.
      await page.goBack();
      await expectHeading(page, 'Get started');
    }
  });
});
