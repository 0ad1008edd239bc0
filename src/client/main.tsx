// Entry point: Mantine (styles, notifications, dates, modals), TanStack Query, the session state
// and the router around the route table.
import './zodConfig';
import './mantine-styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/App';
import { createQueryClient } from './api/queryClient';
import { AuthProvider } from './auth/AuthProvider';
import { NotificationArea } from './components/NotificationArea';
import { startFirstReads } from './app/firstReads';
import { addPageChunks } from './app/pageChunks';
import { PUBLIC_PAGES } from './app/lazyPages';
import { cssVariablesResolver, theme } from './theme';

const queryClient = createQueryClient();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

function render(container: HTMLElement) {
  const reactRoot = createRoot(container);
  // In a transition, React renders the first screen in slices of a few milliseconds and lets the
  // browser paint and take input between them, instead of in one long task (bench:web measured
  // Lighthouse's Total Blocking Time on the public pages with and without it).
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
          <NotificationArea />
          <QueryClientProvider client={queryClient}>
            <BrowserRouter>
              <AuthProvider>
                <App />
              </AuthProvider>
            </BrowserRouter>
          </QueryClientProvider>
        </MantineProvider>
      </StrictMode>,
    ),
  );
}

addPageChunks();
startFirstReads(queryClient, window.location);

// The first page of the visit is loaded before the first render, so that it renders in that pass
// (lazyPage). Its chunks are already on their way: the HTML of a public path names them. If they
// cannot be loaded, the page's load-failure boundary says so once it renders.
void Promise.resolve(PUBLIC_PAGES[window.location.pathname]?.preload())
  .catch(() => undefined)
  .then(() => render(root));
