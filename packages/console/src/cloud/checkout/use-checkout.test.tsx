// @vitest-environment happy-dom
import { CHECKOUT_SESSION_STORAGE_KEY } from '@gatehouse/schemas';
import { act, cleanup, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../components/Toast/ToastProvider.tsx';
import components from '../../i18n/locales/en/components.json';
import plans from '../../i18n/locales/en/plans.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { Translations } from '../../i18n/runtime.ts';
import { useCheckout } from './use-checkout.ts';

const mutateAsync = vi.hoisted(() => vi.fn());
vi.mock('../../api/billing.ts', () => ({ useCreateCheckoutSession: () => ({ mutateAsync }) }));

function wrapper({ children }: { children: ReactNode }) {
  const i18n = new Translations({ language: 'en', resources: { en: { components, plans } } });
  return (
    <I18nProvider i18n={i18n}>
      <ToastProvider>{children}</ToastProvider>
    </I18nProvider>
  );
}

let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;
beforeEach(() => {
  sessionStorage.clear();
  mutateAsync.mockReset();
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, origin: 'https://c.example', assign });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('useCheckout (spec §4 checkout)', () => {
  it('creates the session with a fresh state in the success URL, stores it and goes to the provider page', async () => {
    mutateAsync.mockResolvedValue({
      redirectUri: 'https://c.example/sandbox-payments/checkout/cs_1',
      sessionId: 'cs_1',
    });
    const { result } = renderHook(() => useCheckout(), { wrapper });
    await act(() =>
      result.current.start(
        'Pro202411',
        { tenantId: 't1' },
        { callbackPage: '/t1/tenant-settings', isDowngrade: false },
      ),
    );

    const body = mutateAsync.mock.calls[0]?.[0];
    const url = new URL(body.successCallbackUrl);
    // Under the console's base path ('/console' in the build).
    const base = import.meta.env.BASE_URL.replace(/\/$/, '');
    expect(url.origin + url.pathname).toBe(`https://c.example${base}/checkout-success-callback`);
    const state = url.searchParams.get('state');
    expect(state).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(body).toMatchObject({ skuId: 'Pro202411', tenantId: 't1' });
    expect(JSON.parse(sessionStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY) ?? '')).toEqual({
      state,
      sessionId: 'cs_1',
      callbackPage: '/t1/tenant-settings',
      isDowngrade: false,
    });
    expect(assign).toHaveBeenCalledWith('https://c.example/sandbox-payments/checkout/cs_1');
    // Still processing while the browser leaves, so no other plan can start meanwhile.
    expect(result.current.processingSkuId).toBe('Pro202411');
  });

  it("an empty redirect is the 'unknown error' toast: nothing stored, nowhere to go, buttons back", async () => {
    mutateAsync.mockResolvedValue({ redirectUri: '', sessionId: 'cs_2' });
    const { result } = renderHook(() => useCheckout(), { wrapper });
    await act(() =>
      result.current.start('Pro202411', { tenantName: 'Acme', tenantTag: 'production', tenantRegionName: 'EU' }),
    );

    expect(await screen.findByText('The checkout could not be started. Please try again.')).toBeTruthy();
    expect(sessionStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBeNull();
    expect(assign).not.toHaveBeenCalled();
    expect(result.current.processingSkuId).toBeUndefined();
  });

  it('a refused create leaves nothing stored and the buttons back (the query client toasts the error)', async () => {
    mutateAsync.mockRejectedValue(new Error('422'));
    const { result } = renderHook(() => useCheckout(), { wrapper });
    await act(() => result.current.start('Pro202411', { tenantId: 't1' }));

    expect(sessionStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBeNull();
    expect(assign).not.toHaveBeenCalled();
    expect(result.current.processingSkuId).toBeUndefined();
  });
});
