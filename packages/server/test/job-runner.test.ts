import { and, asc, eq, lte, type SQL, sql } from 'drizzle-orm';
import { integer, pgTable, primaryKey, timestamp, varchar } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.ts';
import {
  exponentialBackoff,
  fromNow,
  type JobDefinition,
  JobRunner,
  type JobRunnerOptions,
  notLeased,
} from '../src/services/job-runner.ts';
import { createTestDatabase } from './support/database.ts';

/**
 * The job runner on a queue table of its own (created here), on PGlite or on the PostgreSQL of TEST_DATABASE_URL.
 * The workers built on it have their own tests: hooks-delivery, invitation-email, user-import.
 */

const testJobs = pgTable(
  'test_jobs',
  {
    tenantId: varchar('tenant_id', { length: 21 }).notNull(),
    id: varchar('id', { length: 21 }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);
type TestJob = typeof testJobs.$inferSelect;
type Result = { failed: false } | { failed: true; permanent?: boolean };

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`create table test_jobs (
    tenant_id varchar(21) not null, id varchar(21) not null, status varchar(16) not null default 'pending',
    attempts integer not null default 0, next_attempt_at timestamptz not null default now(),
    locked_until timestamptz, created_at timestamptz not null default now(), primary key (tenant_id, id))`);
});
afterAll(() => database.close());
beforeEach(() => database.db.delete(testJobs));

const keyOf = (job: TestJob) => and(eq(testJobs.tenantId, job.tenantId), eq(testJobs.id, job.id)) as SQL;
const addJobs = (...ids: string[]) =>
  database.db.insert(testJobs).values(ids.map((id, index) => ({ tenantId: `t${index % 2}`, id })));
const jobNamed = async (id: string) => {
  const [job] = await database.db.select().from(testJobs).where(eq(testJobs.id, id));
  if (!job) throw new Error(`no job ${id}`);
  return job;
};

/** A queue as the workers define theirs: `attempts` counted at the claim, `locked_until` the lease. */
function runner(
  run: (job: TestJob, signal: AbortSignal) => Promise<Result>,
  options: Partial<JobRunnerOptions> & Partial<Pick<JobDefinition<typeof testJobs, Result>, 'crashed'>> = {},
) {
  const { db } = database;
  return new JobRunner<typeof testJobs, Result>(
    {
      name: 'test worker',
      table: testJobs,
      claimable: and(
        eq(testJobs.status, 'pending'),
        lte(testJobs.nextAttemptAt, sql`now()`),
        notLeased(testJobs.lockedUntil),
      ) as SQL,
      orderBy: asc(testJobs.createdAt),
      claim: (leaseMs) => ({ lockedUntil: fromNow(leaseMs), attempts: sql`${testJobs.attempts} + 1` }),
      attempt: (job) => job.attempts,
      maxAttempts: () => 3,
      run: (job, context) => run(job, context.signal),
      ...(options.crashed ? { crashed: options.crashed } : {}),
      settle: async (job, result, retryInMs) => {
        await db
          .update(testJobs)
          .set(
            retryInMs === undefined
              ? { status: result.failed ? 'failed' : 'done', lockedUntil: null }
              : { lockedUntil: null, nextAttemptAt: fromNow(retryInMs) },
          )
          .where(keyOf(job));
      },
    },
    { db, intervalMs: 10, leaseMs: 60_000, claimLimit: 5, backoffMs: () => 0, ...options },
  );
}

const deferred = () => {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
};
const waitFor = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('job runner', () => {
  it('runs each job once, in claims of the limit, with several runners at the same time', async () => {
    const ids = Array.from({ length: 23 }, (_, index) => `job${index}`);
    await addJobs(...ids);
    const ran: string[] = [];
    const work = async (job: TestJob): Promise<Result> => {
      ran.push(job.id);
      await new Promise((resolve) => setTimeout(resolve, 2));
      return { failed: false };
    };
    const [first, second, third] = [runner(work), runner(work), runner(work)];
    await Promise.all([first.drain(), second.drain(), third.drain()]);
    expect(ran.sort()).toEqual([...ids].sort());
    const rows = await database.db.select().from(testJobs);
    expect(rows.every((row) => row.status === 'done' && row.attempts === 1 && row.lockedUntil === null)).toBe(true);
    expect(await first.runOnce(), 'nothing left').toBe(0);
  });

  it('takes a job again once the lease of a process that died with it has run out, not before', async () => {
    await addJobs('orphan');
    // A process that claims the job and dies: its run never settles, the lease stays.
    const dying = runner(
      async () => {
        throw new Error('the process died');
      },
      { leaseMs: 300 },
    );
    expect(await dying.runOnce()).toBe(1);
    const orphan = await jobNamed('orphan');
    expect(orphan).toMatchObject({ status: 'pending', attempts: 1 });
    expect(orphan.lockedUntil?.getTime() ?? 0, 'leased').toBeGreaterThan(Date.now() - 1000);

    const ran: string[] = [];
    const healthy = runner(async (job) => {
      ran.push(job.id);
      return { failed: false };
    });
    expect(await healthy.runOnce(), 'leased elsewhere: left alone').toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await healthy.runOnce()).toBe(1);
    expect(ran).toEqual(['orphan']);
    expect(await jobNamed('orphan')).toMatchObject({ status: 'done', attempts: 2, lockedUntil: null });
  });

  it('retries a failure after the backoff up to the last attempt; a permanent failure is not retried', async () => {
    await addJobs('flaky', 'broken', 'refused');
    const delays: number[] = [];
    const runs: string[] = [];
    const flaky = runner(
      async (job) => {
        runs.push(`${job.id}#${job.attempts}`);
        if (job.id === 'flaky') return { failed: job.attempts < 3 };
        return job.id === 'refused' ? { failed: true, permanent: true } : { failed: true };
      },
      {
        backoffMs: (retry) => {
          delays.push(retry);
          return 60_000;
        },
      },
    );
    await flaky.drain();
    expect(runs.sort()).toEqual(['broken#1', 'flaky#1', 'refused#1']);
    const waiting = await jobNamed('flaky');
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
    const [due] = await database.db
      .select({ wait: sql<string>`extract(epoch from (${testJobs.nextAttemptAt} - now())) * 1000` })
      .from(testJobs)
      .where(eq(testJobs.id, 'flaky'));
    expect(Number(due?.wait), 'due after the backoff, by the database clock').toBeGreaterThan(55_000);
    expect(await jobNamed('refused'), 'permanent: over at once').toMatchObject({ status: 'failed', attempts: 1 });

    // Not due before its time; due once it is.
    await flaky.drain();
    expect(runs).toHaveLength(3);
    for (let round = 0; round < 2; round++) {
      await database.db.update(testJobs).set({ nextAttemptAt: new Date(Date.now() - 1000) });
      await flaky.drain();
    }
    expect(runs.sort()).toEqual(['broken#1', 'broken#2', 'broken#3', 'flaky#1', 'flaky#2', 'flaky#3', 'refused#1']);
    expect(await jobNamed('flaky')).toMatchObject({ status: 'done', attempts: 3 });
    expect(await jobNamed('broken'), 'attempts used up').toMatchObject({ status: 'failed', attempts: 3 });
    expect(delays, 'backoff asked for retries 1 and 2 of each retried job').toEqual([1, 1, 2, 2]);
    expect([1, 2, 3].map(exponentialBackoff(1000))).toEqual([1000, 4000, 16_000]);
    expect([1, 2].map(exponentialBackoff(30_000, 2))).toEqual([30_000, 60_000]);
  });

  it('records what a crashed run counts as, when the definition says', async () => {
    await addJobs('crash');
    const seen: unknown[] = [];
    const crashing = runner(
      async () => {
        throw new Error('boom');
      },
      {
        crashed: (_job, error) => {
          seen.push(error instanceof Error ? error.message : error);
          return { failed: true, permanent: true };
        },
      },
    );
    await crashing.drain();
    expect(seen).toEqual(['boom']);
    expect(await jobNamed('crash')).toMatchObject({ status: 'failed', attempts: 1, lockedUntil: null });
  });

  it('stops cleanly: waits for the job in flight, which sees the stop, and claims nothing more', async () => {
    await addJobs('long');
    const started = deferred();
    const release = deferred();
    const ran: string[] = [];
    let sawStop = false;
    const background = runner(async (job, signal) => {
      ran.push(job.id);
      started.resolve();
      await release.promise;
      sawStop = signal.aborted;
      return { failed: false };
    });
    background.start();
    await started.promise;
    let stopped = false;
    const stopping = background.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped, 'stop waits for the job in flight').toBe(false);
    release.resolve();
    await stopping;
    expect(sawStop, 'the job saw the stop (a long job hands itself back)').toBe(true);
    expect(await jobNamed('long')).toMatchObject({ status: 'done', lockedUntil: null });

    await addJobs('after-stop');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await background.runOnce(), 'a stopped runner claims nothing').toBe(0);
    expect(ran).toEqual(['long']);
    expect(await jobNamed('after-stop')).toMatchObject({ status: 'pending', attempts: 0, lockedUntil: null });

    // Started again, it works again.
    background.start();
    await waitFor(() => ran.includes('after-stop'), 'the restarted runner');
    await background.stop();
  });
});
