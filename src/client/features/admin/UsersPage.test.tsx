// The Users page: the list as the server pages it, the search, and each account action behind its
// confirmation, with the call it makes.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../../shared/admin-users';
import type { PublicUser } from '../../../shared/users';
import { hospitalUser, renderApp } from '../../test/render';
import UsersPage from './UsersPage';

const admin: PublicUser = {
  ...hospitalUser,
  id: 'u-admin',
  email: 'ops@medledger.example',
  role: 'medledger_admin',
  firstName: 'Ada',
  lastName: 'Admin',
  hospitalName: null,
  twoFactorEnabled: true,
};

const account = (over: Partial<AdminUser>): AdminUser => ({
  id: 'u-1',
  email: 'someone@example.com',
  role: 'patient',
  firstName: 'Sam',
  lastName: 'Patient',
  hospitalName: null,
  status: 'active',
  suspendedAt: null,
  verified: null,
  verifiedAt: null,
  twoFactorEnabled: false,
  lastLoginAt: null,
  createdAt: '2025-01-02T10:00:00.000Z',
  ...over,
});

const self = account({
  id: admin.id,
  email: admin.email,
  role: 'medledger_admin',
  firstName: 'Ada',
  lastName: 'Admin',
});
const hospital = account({
  id: 'u-h',
  email: 'desk@stmarys.example',
  role: 'hospital',
  hospitalName: "St. Mary's",
  verified: false,
});
const suspended = account({
  id: 'u-s',
  email: 'gone@example.com',
  firstName: 'Gone',
  lastName: 'Away',
  status: 'suspended',
});

const page = (items: AdminUser[]) => ({ body: { items, total: items.length, page: 1, pageSize: 20 } });

describe('UsersPage', () => {
  it('lists the accounts the server pages, and searches on submit', async () => {
    const { user, network } = renderApp(<UsersPage />, {
      user: admin,
      routes: {
        'GET /api/admin/users': (call) =>
          page(
            new URL(call.url, 'http://x').searchParams.get('search') === 'mary'
              ? [hospital]
              : [self, hospital, suspended],
          ),
      },
    });
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(await within(table).findByText("St. Mary's")).toBeInTheDocument();
    expect(within(table).getAllByTestId('user-row')).toHaveLength(3);
    // One's own account cannot be suspended; a provider not verified yet can be verified.
    expect(screen.getByRole('button', { name: 'Suspend Ada Admin' })).toBeDisabled();
    expect(screen.getByRole('button', { name: "Verify St. Mary's as a provider" })).toBeEnabled();

    await user.type(screen.getByRole('textbox', { name: /Search users/ }), '  mary ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await expect.poll(() => within(table).queryAllByTestId('user-row').length).toBe(1);
    const searched = new URL(network.to('GET /api/admin/users').at(-1)!.url, 'http://x').searchParams;
    expect(Object.fromEntries(searched)).toMatchObject({
      search: 'mary',
      role: 'all',
      status: 'all',
      page: '1',
    });
  });

  it('suspends an account only once the confirmation is accepted, and says what the server did', async () => {
    const { user, network } = renderApp(<UsersPage />, {
      user: admin,
      routes: {
        'GET /api/admin/users': page([self, hospital]),
        'POST /api/admin/users/u-h/suspend': {
          body: { user: { ...hospital, status: 'suspended' }, message: "St. Mary's is suspended." },
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: "Suspend St. Mary's" }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend this account?' });
    expect(dialog).toHaveTextContent('desk@stmarys.example');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(network.to('POST /api/admin/users/u-h/suspend')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: "Suspend St. Mary's" }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText("St. Mary's is suspended.")).toBeInTheDocument();
    expect(network.to('POST /api/admin/users/u-h/suspend')).toHaveLength(1);
  });

  it("reactivates with the restore choice the dialog's box gives, and shows a refusal", async () => {
    const { user, network } = renderApp(<UsersPage />, {
      user: admin,
      routes: {
        'GET /api/admin/users': page([suspended]),
        'POST /api/admin/users/u-s/reactivate': {
          status: 409,
          body: { message: 'The account was deleted.' },
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Reactivate Gone Away' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate this account?' });
    await user.click(within(dialog).getByRole('checkbox', { name: /Also restore the share links/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    expect(await screen.findByText('The account was deleted.')).toBeInTheDocument();
    expect(network.to('POST /api/admin/users/u-s/reactivate').map((c) => c.body)).toEqual([
      { restoreSharing: true },
    ]);
  });

  it('asks for two-factor sign-in first, and asks for no list without it', async () => {
    const { network } = renderApp(<UsersPage />, { user: { ...admin, twoFactorEnabled: false } });
    expect(await screen.findByText('Turn on two-factor sign-in first')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set up two-factor sign-in' })).toHaveAttribute(
      'href',
      '/profile/edit#two-factor',
    );
    expect(network.to('GET /api/admin/users')).toHaveLength(0);
  });
});
