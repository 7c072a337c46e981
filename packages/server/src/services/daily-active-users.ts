import { DAU_CURVE_DAYS, type NewUsers } from '@gatehouse/schemas';
import { and, count, countDistinct, eq, gte, lt, lte } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import { dailyActiveUsers, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';

const DAY_MS = 86_400_000;

/** The UTC calendar day of a time, `YYYY-MM-DD`. */
export const utcDay = (at: Date | number = Date.now()): string => new Date(at).toISOString().slice(0, 10);

/** The day `offset` days after `day` (negative: before). */
export const addDays = (day: string, offset: number): string =>
  utcDay(Date.parse(`${day}T00:00:00.000Z`) + offset * DAY_MS);

/**
 * Marks the user active today (UTC): one `INSERT … ON CONFLICT DO NOTHING` on the table's primary key,
 * so the second sign-in or token of the day costs one index probe. Activity is a statistic, not part of
 * the flow that reports it: a failure is logged and swallowed, never failing a sign-in or a token.
 */
export async function recordDailyActiveUser(
  tenant: TenantDb,
  userId: string,
  log?: Pick<Logger, 'warn'> | undefined,
): Promise<void> {
  try {
    await tenant.insertIfAbsent(dailyActiveUsers, { day: utcDay(), userId });
  } catch (error) {
    log?.warn({ err: error, tenantId: tenant.tenantId, userId }, 'could not record the daily active user');
  }
}

/**
 * Tokens count as activity too: a user who stays signed in and refreshes tokens is active on the days
 * they do, not only on the day they typed a password. Every successful grant at the token endpoint
 * that carries a user (authorization code, refresh token) records them; client-credential grants have
 * no user and are skipped. Only a user's first grant of the day in this provider writes: the ones after
 * it would insert nothing (issue 38: a refresh grant's statements). The memory holds today's users, at
 * most {@link RECORDED_TODAY_LIMIT}, and starts again each day.
 */
export function recordActivityOnTokenGrants(
  provider: Provider,
  tenant: TenantDb,
  log?: Pick<Logger, 'warn'> | undefined,
): void {
  let today = '';
  const recorded = new Set<string>();
  provider.on('grant.success', (ctx) => {
    const userId = ctx.oidc.account?.accountId ?? ctx.oidc.entities.AccessToken?.accountId;
    if (!userId) return;
    const day = utcDay();
    if (day !== today || recorded.size >= RECORDED_TODAY_LIMIT) {
      today = day;
      recorded.clear();
    }
    if (recorded.has(userId)) return;
    recorded.add(userId);
    void recordDailyActiveUser(tenant, userId, log);
  });
}

/** How many users' activity of today a tenant's provider remembers having written. */
export const RECORDED_TODAY_LIMIT = 50_000;

/** Active users on `day` alone. */
async function activeOn(tenant: TenantDb, day: string): Promise<number> {
  return tenant.count(dailyActiveUsers, eq(dailyActiveUsers.day, day));
}

/** Distinct users active in the `days` days ending at `last` (a primary-key range). */
async function activeDuring(tenant: TenantDb, last: string, days: number): Promise<number> {
  const [row] = await tenant.aggregate(
    { value: countDistinct(dailyActiveUsers.userId) },
    dailyActiveUsers,
    and(gte(dailyActiveUsers.day, addDays(last, 1 - days)), lte(dailyActiveUsers.day, last)),
  );
  return Number(row?.value ?? 0);
}

const withDelta = (current: number, previous: number) => ({ count: current, delta: current - previous });

/**
 * DAU, WAU (7 days) and MAU (30 days) ending at `day`, each against the period just before it, and
 * the daily curve of the {@link DAU_CURVE_DAYS} days ending at `day` (days without activity are 0).
 */
export async function activeUsersReport(tenant: TenantDb, day: string) {
  const first = addDays(day, 1 - DAU_CURVE_DAYS);
  const [perDay, dau, dauBefore, wau, wauBefore, mau, mauBefore] = await Promise.all([
    tenant.aggregate(
      { day: dailyActiveUsers.day, value: count() },
      dailyActiveUsers,
      and(gte(dailyActiveUsers.day, first), lte(dailyActiveUsers.day, day)),
      [dailyActiveUsers.day],
    ),
    activeOn(tenant, day),
    activeOn(tenant, addDays(day, -1)),
    activeDuring(tenant, day, 7),
    activeDuring(tenant, addDays(day, -7), 7),
    activeDuring(tenant, day, 30),
    activeDuring(tenant, addDays(day, -30), 30),
  ]);
  const counts = new Map(perDay.map((row) => [String(row.day), Number(row.value)]));
  const dauCurve = Array.from({ length: DAU_CURVE_DAYS }, (_, index) => {
    const date = addDays(first, index);
    return { date, count: counts.get(date) ?? 0 };
  });
  return { dauCurve, dau: withDelta(dau, dauBefore), wau: withDelta(wau, wauBefore), mau: withDelta(mau, mauBefore) };
}

const startOf = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** Users created from the start of `from` up to the start of `to` (the users_created_at index range). */
const createdBetween = (tenant: TenantDb, from: string, to: string) =>
  tenant.count(users, and(gte(users.createdAt, startOf(from)), lt(users.createdAt, startOf(to))));

/** New users today and in the last 7 days (UTC), each with its change against the period before. */
export async function newUsersReport(tenant: TenantDb): Promise<NewUsers> {
  const today = utcDay();
  const tomorrow = addDays(today, 1);
  const [todayCount, yesterdayCount, weekCount, weekBeforeCount] = await Promise.all([
    createdBetween(tenant, today, tomorrow),
    createdBetween(tenant, addDays(today, -1), today),
    createdBetween(tenant, addDays(today, -6), tomorrow),
    createdBetween(tenant, addDays(today, -13), addDays(today, -6)),
  ]);
  return {
    today: { count: todayCount, delta: todayCount - yesterdayCount },
    last7Days: { count: weekCount, delta: weekCount - weekBeforeCount },
  };
}
