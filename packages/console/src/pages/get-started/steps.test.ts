import { describe, expect, it } from 'vitest';
import { progressOf, type StepKey, stepActionVariants, stepChecks } from './steps.ts';

const check = (key: StepKey) => {
  const found = stepChecks.find((step) => step.key === key);
  if (!found) throw new Error(`no step ${key}`);
  return found;
};

describe('get-started steps', () => {
  it('do not count what every tenant is seeded with', () => {
    const seededRole = { id: 'r1', name: 'Management API access' };
    expect(check('role').isDone([seededRole], 1)).toBe(false);
    expect(check('role').isDone([seededRole, { id: 'r2', name: 'Editor' }], 2)).toBe(true);
    const managementApi = { id: 'm', indicator: 'https://default.gatehouse.internal/api' };
    expect(check('api_resource').isDone([managementApi], 1)).toBe(false);
    expect(check('api_resource').isDone([managementApi, { id: 'a', indicator: 'https://api.example.com' }], 2)).toBe(
      true,
    );
  });

  it('count anything else that exists', () => {
    expect(check('application').isDone([], 0)).toBe(false);
    expect(check('application').isDone([{ id: 'a' }], 1)).toBe(true);
    expect(check('sign_in').path).toContain('result=Success');
  });

  it('show progress as a whole percentage', () => {
    expect(progressOf(0, 7)).toBe(0);
    expect(progressOf(2, 7)).toBe(29);
    expect(progressOf(7, 7)).toBe(100);
  });
});

describe('step actions', () => {
  it('make the first step to do the only primary action; later ones secondary, done ones tertiary', () => {
    expect(stepActionVariants([true, false, undefined, false, true])).toEqual([
      'text',
      'primary',
      'default',
      'default',
      'text',
    ]);
    expect(stepActionVariants([true, true]), 'all done: no primary action').toEqual(['text', 'text']);
  });
});
