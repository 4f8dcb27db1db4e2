import './boot-reads.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Toaster } from 'sonner';
import { ApiFailure } from './api/client.ts';
import { bootReadSettled, seedBootSession } from './api/session.ts';
import { App } from './app.tsx';
import { firstPageLoaded } from './routes.ts';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A 4xx answer will not change on retry (not found, forbidden, bad filter).
      retry: (count, error) => !(error instanceof ApiFailure && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

// The first render has the session and the page (both read since the entry's first import).
void Promise.all([bootReadSettled, firstPageLoaded]).then(() => {
  seedBootSession(queryClient);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <App />
          <Toaster position="bottom-right" closeButton />
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
});
