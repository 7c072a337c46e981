import { expect, type Locator, type Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';

/** Path of a page inside the console for the edition under test (cloud puts the tenant first). */
export function consolePath(path = ''): string {
  const tenant = edition === 'cloud' ? '/default' : '';
  return `/console${tenant}${path ? `/${path}` : ''}`;
}

/** Collects CSP violations and uncaught errors so a test can assert the page ran cleanly. */
export function watchPageErrors(page: Page): () => string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} ${message.location().url}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return () => problems;
}

export async function expectHeading(page: Page, name: string | RegExp): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/**
 * How many lines each choice card's description of a radio group takes (the kit's CardRadio: a label per option, its
 * description the last span of its text), as drawn at the page's current size.
 */
export async function choiceDescriptionLines(group: Locator): Promise<number[]> {
  return group.evaluate((element) =>
    [...element.querySelectorAll('label')].flatMap((card) => {
      const spans = card.querySelectorAll('span > span');
      const description = spans[spans.length - 1];
      if (!description || spans.length < 2) return [];
      const style = getComputedStyle(description);
      const lineHeight = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.5;
      return [Math.round(description.getBoundingClientRect().height / lineHeight)];
    }),
  );
}
