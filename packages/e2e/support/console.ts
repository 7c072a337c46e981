import { expect, type Page } from '@playwright/test';
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
