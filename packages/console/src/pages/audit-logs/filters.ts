import type { LogFilter, LogResult } from '../../api/logs.ts';

/** The result filter as the URL holds it (`result=error`); absent means all results. */
export const resultFilters = ['all', 'success', 'error'] as const;
export type ResultFilter = (typeof resultFilters)[number];

const apiResult: Record<Exclude<ResultFilter, 'all'>, LogResult> = { success: 'Success', error: 'Error' };

/** URL names of the list's filters. Times are `datetime-local` values (local time, to the minute). */
export const filterParams = {
  logKey: 'logKey',
  result: 'result',
  userId: 'userId',
  applicationId: 'applicationId',
  from: 'from',
  to: 'to',
} as const;

export type AuditLogFilters = {
  logKey: string | undefined;
  result: ResultFilter;
  userId: string | undefined;
  applicationId: string | undefined;
  from: string | undefined;
  to: string | undefined;
};

const localDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** A `datetime-local` value as epoch ms in the browser's time zone; anything else reads as no bound. */
export function localTimeToEpoch(value: string | undefined): number | undefined {
  if (!value || !localDateTime.test(value)) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : time;
}

/** The filters of a URL; unknown values in a hand-edited URL read as 'no filter' instead of failing. */
export function readFilters(params: URLSearchParams): AuditLogFilters {
  const text = (name: string) => params.get(name)?.trim() || undefined;
  const result = params.get(filterParams.result);
  return {
    logKey: text(filterParams.logKey),
    result: resultFilters.find((value) => value === result) ?? 'all',
    userId: text(filterParams.userId),
    applicationId: text(filterParams.applicationId),
    from: localTimeToEpoch(text(filterParams.from)) === undefined ? undefined : text(filterParams.from),
    to: localTimeToEpoch(text(filterParams.to)) === undefined ? undefined : text(filterParams.to),
  };
}

/** A time range whose start is not before its end matches nothing; the list says so instead of asking the server. */
export function isRangeInverted(filters: Pick<AuditLogFilters, 'from' | 'to'>): boolean {
  const from = localTimeToEpoch(filters.from);
  const to = localTimeToEpoch(filters.to);
  return from !== undefined && to !== undefined && from >= to;
}

/**
 * The GET /logs query of the filters. The end is inclusive for the user (to 10:30 includes 10:30:59), so the API's
 * exclusive `end_time` is the start of the next minute.
 */
export function toLogFilter(filters: AuditLogFilters): LogFilter {
  const to = localTimeToEpoch(filters.to);
  return {
    logKey: filters.logKey,
    result: filters.result === 'all' ? undefined : apiResult[filters.result],
    userId: filters.userId,
    applicationId: filters.applicationId,
    start_time: localTimeToEpoch(filters.from),
    end_time: to === undefined ? undefined : to + 60_000,
  };
}

export function hasFilters(filters: AuditLogFilters): boolean {
  return Boolean(
    filters.logKey || filters.result !== 'all' || filters.userId || filters.applicationId || filters.from || filters.to,
  );
}
