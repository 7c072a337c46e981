import {
  CHECKOUT_POLL_INTERVAL_MS,
  CHECKOUT_TIMEOUT_MS,
  type CheckoutSession,
  type StoredCheckoutSession,
  type Subscription,
} from '@gatehouse/schemas';

/** How a return from the provider page ends (spec §2.8, §4 checkout). */
export type CheckoutOutcome =
  /** No stored copy, or the URL's state is not the stored one: nothing of ours to check. */
  | { kind: 'invalid' }
  /** Paid, and the tenant's subscription already reads the purchased plan. */
  | { kind: 'complete'; stored: StoredCheckoutSession; session: CheckoutSession; subscription: Subscription }
  /** Cancelled on the provider page, or left open past its lifetime. */
  | { kind: 'closed'; stored: StoredCheckoutSession; session: CheckoutSession }
  | { kind: 'timeout'; stored: StoredCheckoutSession };

export type WatchCheckoutOptions = {
  /** The state query parameter of the callback URL. */
  urlState: string | null;
  stored: StoredCheckoutSession | undefined;
  fetchSession: (sessionId: string, signal: AbortSignal) => Promise<CheckoutSession>;
  fetchSubscription: (tenantId: string, signal: AbortSignal) => Promise<Subscription>;
  onOutcome: (outcome: CheckoutOutcome) => void;
  intervalMs?: number;
  timeoutMs?: number;
};

/**
 * Spec §4: polls the checkout session and, once it names a tenant, that tenant's subscription, one round at a time
 * every interval, until the session is complete and the subscription is on the purchased plan, the session is
 * cancelled or expired, or the timeout passes. Reports exactly one outcome; the returned function stops it silently.
 */
export function watchCheckout({
  urlState,
  stored,
  fetchSession,
  fetchSubscription,
  onOutcome,
  intervalMs = CHECKOUT_POLL_INTERVAL_MS,
  timeoutMs = CHECKOUT_TIMEOUT_MS,
}: WatchCheckoutOptions): () => void {
  let isOver = false;
  if (!stored || urlState === null || stored.state !== urlState) {
    // Deferred like every other outcome, so callers never get one during their own set-up.
    queueMicrotask(() => onOutcome({ kind: 'invalid' }));
    return () => undefined;
  }
  const controller = new AbortController();
  let pollTimer: ReturnType<typeof setTimeout> | undefined;

  const stop = () => {
    isOver = true;
    clearTimeout(pollTimer);
    clearTimeout(timeoutTimer);
    controller.abort();
  };
  const finish = (outcome: CheckoutOutcome) => {
    if (isOver) return;
    stop();
    onOutcome(outcome);
  };
  const timeoutTimer = setTimeout(() => finish({ kind: 'timeout', stored }), timeoutMs);

  const round = async (): Promise<CheckoutOutcome | undefined> => {
    const session = await fetchSession(stored.sessionId, controller.signal);
    if (session.status === 'canceled' || session.status === 'expired') return { kind: 'closed', stored, session };
    if (session.status !== 'complete' || session.tenantId === null) return undefined;
    const subscription = await fetchSubscription(session.tenantId, controller.signal);
    // The provider's confirmation can land before the subscription moves to the plan: keep polling until it has.
    return subscription.planId === session.skuId ? { kind: 'complete', stored, session, subscription } : undefined;
  };

  const poll = () => {
    round().then(
      (outcome) => {
        if (outcome) finish(outcome);
        else if (!isOver) pollTimer = setTimeout(poll, intervalMs);
      },
      () => {
        // A failed round (network, a 5xx) is retried on the next tick; the timeout bounds the wait.
        if (!isOver) pollTimer = setTimeout(poll, intervalMs);
      },
    );
  };
  poll();
  return stop;
}
