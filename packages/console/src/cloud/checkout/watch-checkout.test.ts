import type { CheckoutSession, StoredCheckoutSession, Subscription } from '@gatehouse/schemas';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CheckoutOutcome, watchCheckout } from './watch-checkout.ts';

const stored: StoredCheckoutSession = { state: 'aB3xY9', sessionId: 'cs_1' };

function session(patch: Partial<CheckoutSession> = {}): CheckoutSession {
  return { id: 'cs_1', status: 'open', tenantId: null, skuId: 'Pro202411', createdAt: 0, ...patch };
}

function subscription(planId: string): Subscription {
  return { status: 'active', planId, currentPeriodStart: 0, currentPeriodEnd: 1, isEnterprisePlan: false };
}

/** Answers each poll with the next scripted value (the last one repeats); records the calls. */
function script<T>(answers: ReadonlyArray<T | Error>) {
  let index = 0;
  const fn = vi.fn(async (_id: string, _signal: AbortSignal): Promise<T> => {
    const answer = answers[Math.min(index++, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    return answer as T;
  });
  return fn;
}

describe('watchCheckout', () => {
  let outcomes: CheckoutOutcome[];
  const onOutcome = (outcome: CheckoutOutcome) => outcomes.push(outcome);

  beforeEach(() => {
    vi.useFakeTimers();
    outcomes = [];
  });
  afterEach(() => vi.useRealTimers());

  it('completes once the session is complete and the subscription reads the purchased plan', async () => {
    const fetchSession = script([session(), session({ status: 'complete', tenantId: 't1' })]);
    const fetchSubscription = script([subscription('Pro202411')]);
    watchCheckout({ urlState: 'aB3xY9', stored, fetchSession, fetchSubscription, onOutcome });

    await vi.advanceTimersByTimeAsync(0);
    expect(fetchSession).toHaveBeenCalledTimes(1);
    expect(fetchSubscription).not.toHaveBeenCalled(); // open, no tenant yet
    expect(outcomes).toEqual([]);

    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchSubscription).toHaveBeenCalledWith('t1', expect.any(AbortSignal));
    expect(outcomes).toEqual([
      {
        kind: 'complete',
        stored,
        session: session({ status: 'complete', tenantId: 't1' }),
        subscription: subscription('Pro202411'),
      },
    ]);
    // Nothing polls after the outcome.
    await vi.advanceTimersByTimeAsync(20_000);
    expect(fetchSession).toHaveBeenCalledTimes(2);
    expect(outcomes).toHaveLength(1);
  });

  it('keeps polling while the subscription still reads the old plan, then completes', async () => {
    const fetchSession = script([session({ status: 'complete', tenantId: 't1' })]);
    const fetchSubscription = script([subscription('Free'), subscription('Free'), subscription('Pro202411')]);
    watchCheckout({ urlState: 'aB3xY9', stored, fetchSession, fetchSubscription, onOutcome });

    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchSubscription).toHaveBeenCalledTimes(2);
    expect(outcomes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchSubscription).toHaveBeenCalledTimes(3);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['complete']);
  });

  it('times out after 10 seconds with the session never complete, and stops polling', async () => {
    const fetchSession = script([session()]);
    const fetchSubscription = script<Subscription>([new Error('never called')]);
    watchCheckout({ urlState: 'aB3xY9', stored, fetchSession, fetchSubscription, onOutcome });

    await vi.advanceTimersByTimeAsync(9_999);
    expect(outcomes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcomes).toEqual([{ kind: 'timeout', stored }]);
    const calls = fetchSession.mock.calls.length;
    expect(calls).toBeGreaterThanOrEqual(10);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fetchSession).toHaveBeenCalledTimes(calls);
    // The requests' signal is aborted, so one still in flight is cancelled.
    expect(fetchSession.mock.calls.at(-1)?.[1].aborted).toBe(true);
  });

  it('retries a failed poll on the next tick', async () => {
    const fetchSession = script([new Error('network'), session({ status: 'complete', tenantId: 't1' })]);
    const fetchSubscription = script([subscription('Pro202411')]);
    watchCheckout({ urlState: 'aB3xY9', stored, fetchSession, fetchSubscription, onOutcome });

    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['complete']);
  });

  it.each(['canceled', 'expired'] as const)('ends as closed when the session is %s', async (status) => {
    const fetchSession = script([session({ status })]);
    const fetchSubscription = script<Subscription>([new Error('never called')]);
    watchCheckout({ urlState: 'aB3xY9', stored, fetchSession, fetchSubscription, onOutcome });

    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes).toEqual([{ kind: 'closed', stored, session: session({ status }) }]);
    expect(fetchSubscription).not.toHaveBeenCalled();
  });

  it.each([
    ['a state that differs from the stored one', 'zzzzzz', stored],
    ['no state in the URL', null, stored],
    ['no stored copy', 'aB3xY9', undefined],
  ])('is invalid for %s, without a single request', async (_label, urlState, storedCopy) => {
    const fetchSession = script([session()]);
    const fetchSubscription = script([subscription('Free')]);
    watchCheckout({ urlState, stored: storedCopy, fetchSession, fetchSubscription, onOutcome });

    await vi.advanceTimersByTimeAsync(20_000);
    expect(outcomes).toEqual([{ kind: 'invalid' }]);
    expect(fetchSession).not.toHaveBeenCalled();
  });

  it('reports nothing once stopped (the page was left)', async () => {
    const fetchSession = script([session(), session({ status: 'complete', tenantId: 't1' })]);
    const fetchSubscription = script([subscription('Pro202411')]);
    const stop = watchCheckout({ urlState: 'aB3xY9', stored, fetchSession, fetchSubscription, onOutcome });

    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(outcomes).toEqual([]);
    expect(fetchSession).toHaveBeenCalledTimes(1);
  });
});
