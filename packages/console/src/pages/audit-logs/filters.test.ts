import { describe, expect, it } from 'vitest';
import { isRangeInverted, readFilters, toLogFilter } from './filters.ts';

describe('audit-log filters', () => {
  it('reads every filter from the URL and turns it into the GET /logs query', () => {
    const filters = readFilters(
      new URLSearchParams(
        'logKey=Admin.Role.Updated&result=error&userId=u1&applicationId=a1&from=2026-01-02T10:00&to=2026-01-02T11:30',
      ),
    );
    expect(filters).toEqual({
      logKey: 'Admin.Role.Updated',
      result: 'error',
      userId: 'u1',
      applicationId: 'a1',
      from: '2026-01-02T10:00',
      to: '2026-01-02T11:30',
    });
    expect(toLogFilter(filters)).toEqual({
      logKey: 'Admin.Role.Updated',
      result: 'Error',
      userId: 'u1',
      applicationId: 'a1',
      start_time: new Date('2026-01-02T10:00').getTime(),
      // The chosen minute is included: the API's end is exclusive.
      end_time: new Date('2026-01-02T11:31').getTime(),
    });
  });

  it('ignores values a hand-edited URL got wrong', () => {
    const filters = readFilters(new URLSearchParams('result=maybe&from=yesterday&logKey=%20%20'));
    expect(filters).toEqual({
      logKey: undefined,
      result: 'all',
      userId: undefined,
      applicationId: undefined,
      from: undefined,
      to: undefined,
    });
    expect(toLogFilter(filters)).toEqual({
      logKey: undefined,
      result: undefined,
      userId: undefined,
      applicationId: undefined,
      start_time: undefined,
      end_time: undefined,
    });
  });

  it('knows a range whose start is not before its end', () => {
    expect(isRangeInverted({ from: '2026-01-02T10:00', to: '2026-01-02T10:00' })).toBe(true);
    expect(isRangeInverted({ from: '2026-01-02T10:00', to: '2026-01-02T10:01' })).toBe(false);
    expect(isRangeInverted({ from: undefined, to: '2026-01-02T10:01' })).toBe(false);
  });
});
