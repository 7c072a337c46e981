import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export type AxeScope = {
  /** Only this part of the page (a CSS selector), e.g. an open dialog whose page was checked already. */
  include?: string;
  /** Only these rules, e.g. `color-contrast` when only the colours changed (dark mode). */
  rules?: string[];
};

/** The serious and critical axe violations of what `page` shows now, one line each (rule id and targets). */
export async function seriousViolations(page: Page, scope: AxeScope = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (scope.include) builder = builder.include(scope.include);
  if (scope.rules) builder = builder.withRules(scope.rules);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Fails the test, naming `label`, when axe finds a serious or critical violation on `page`. */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  expect(await seriousViolations(page), label).toEqual([]);
}
