import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Toasts } from '../components/Toasts';
import { useMarketSync } from '../features/market';
import { on } from '../lib/events';
import { AppRoutes } from './router';

export function App() {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }));
  useMarketSync();
  // A logout drops every cached answer of the previous user.
  useEffect(() => on('logout', () => queryClient.clear()), [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
      <Toasts />
    </QueryClientProvider>
  );
}
