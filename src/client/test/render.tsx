// Renders a component as the app does: Mantine (in its test mode: no transitions), the toasts, the
// query client, a router at `path`, the session (the user kept in local storage, then confirmed by
// the fake network as the app asks the server) and the workspace providers (dates, confirmation modals).
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import type { PublicUser } from '../../shared/users';
import { createQueryClient } from '../api/queryClient';
import { AuthProvider } from '../auth/AuthProvider';
import { writeStoredUser } from '../auth/storage';
import { NotificationArea } from '../components/NotificationArea';
import { WorkspaceProviders } from '../components/WorkspaceProviders';
import { cssVariablesResolver, theme } from '../theme';
import { fakeNetwork, type Routes } from './network';

export const hospitalUser: PublicUser = {
  id: 'u-hospital',
  email: 'admin@stmarys.example',
  role: 'hospital',
  firstName: 'Grace',
  lastName: 'Hopper',
  hospitalName: "St. Mary's",
  lastLoginAt: null,
};

export function renderApp(
  ui: ReactNode,
  { routes = {}, user = null, path = '/' }: { routes?: Routes; user?: PublicUser | null; path?: string } = {},
) {
  // A signed-in visit starts with the user kept in local storage, as after a sign-in in the app.
  writeStoredUser(user);
  const network = fakeNetwork({ 'GET /api/auth/me': { body: { user } }, ...routes });
  const result = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
      <NotificationArea />
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <AuthProvider>
            <WorkspaceProviders>{ui}</WorkspaceProviders>
          </AuthProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, network, user: userEvent.setup({ delay: null }) };
}
