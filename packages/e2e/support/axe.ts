import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The serious and critical axe violations of what `page` shows now, one line each (rule id and targets). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Fails the test, naming `label`, when axe finds a serious or critical violation on `page`. */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  expect(await seriousViolations(page), label).toEqual([]);
}
