import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { RouterProvider } from 'react-router/dom';
import { KitProvider } from '../components/KitProvider.tsx';
import { queryClient } from './query-client.ts';
import type { ConsoleRouter } from './router.ts';
import { toaster } from './toaster.ts';

export function App({ router }: { router: ConsoleRouter }) {
  return (
    <QueryClientProvider client={queryClient}>
      {/* Catches a suspended useTranslation while a new language's strings download. */}
      <Suspense fallback={null}>
        <KitProvider toaster={toaster}>
          <RouterProvider router={router} />
        </KitProvider>
      </Suspense>
    </QueryClientProvider>
  );
}
