import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Frame, type Page } from '@playwright/test';
import type { AxeResults, ElementContext, RunOptions } from 'axe-core';

export type AxeScope = {
  /** Only this part of the page (a CSS selector), e.g. an open dialog whose page was checked already. */
  include?: string;
  /** Only these rules, e.g. `color-contrast` when only the colours changed (dark mode). */
  rules?: string[];
};

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core itself, put into every frame of the page once per document (a frame that already has it keeps it), then run
 * from the top frame, which asks the frames' copies for their parts (axe's own frame messaging). @axe-core/playwright's
 * builder injected the 500 kB script again on every check and finished each run in a new blank page: 0.75 s for a
 * full check and 0.5 s for a colour-only one, against 0.12 s and 0.08 s here (docs/testing.md, issue 36). Only the
 * violations are collected; the passes were never read.
 */
async function ensureAxe(frame: Frame): Promise<void> {
  try {
    const present = await frame.evaluate(() => 'axe' in window);
    if (!present) await frame.evaluate(axeSource);
  } catch (error) {
    // A frame that navigated away or went while we looked has nothing to check; the top frame must always work.
    if (frame === frame.page().mainFrame()) throw error;
  }
}

/** The serious and critical axe violations of what `page` shows now, one line each (rule id and targets). */
export async function seriousViolations(page: Page, scope: AxeScope = {}): Promise<string[]> {
  for (const frame of page.frames()) await ensureAxe(frame);
  const context: ElementContext = scope.include ? { include: [scope.include] } : { exclude: [] };
  const options: RunOptions = {
    resultTypes: ['violations'],
    ...(scope.rules ? { runOnly: { type: 'rule', values: scope.rules } } : {}),
  };
  const results = await page.evaluate(
    ({ context, options }) =>
      (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<AxeResults> } }).axe.run(
        context,
        options,
      ),
    { context, options },
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Fails the test, naming `label`, when axe finds a serious or critical violation on `page`. */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  expect(await seriousViolations(page), label).toEqual([]);
}
