import { describe, expect, it } from 'vitest';
import { customDataText, parseCustomData } from './custom-data.ts';

describe('parseCustomData', () => {
  it('reads one JSON object', () => {
    expect(parseCustomData('{"plan": "pro", "seats": 3}')).toEqual({ ok: true, value: { plan: 'pro', seats: 3 } });
    expect(parseCustomData(customDataText({ a: { b: [1] } }))).toEqual({ ok: true, value: { a: { b: [1] } } });
  });

  it("refuses text that is not JSON as 'invalid JSON format' (spec §5)", () => {
    expect(parseCustomData('{plan: pro}')).toEqual({ ok: false, problem: 'invalid_json' });
    expect(parseCustomData('{"a": 1,}')).toEqual({ ok: false, problem: 'invalid_json' });
  });

  it('refuses JSON that is not an object, and objects over 64 KiB', () => {
    for (const text of ['[1, 2]', '"text"', '42', 'null']) {
      expect(parseCustomData(text)).toEqual({ ok: false, problem: 'not_object' });
    }
    expect(parseCustomData(JSON.stringify({ big: 'x'.repeat(64 * 1024) }))).toEqual({
      ok: false,
      problem: 'too_large',
    });
  });

  it('takes an emptied editor as no custom data', () => {
    expect(parseCustomData('  \n')).toEqual({ ok: true, value: {} });
  });
});
