// The Staff tab: the members and invitations as the server pages them, the invite form checked
// with staffInviteSchema (and the server's 409 shown), and deactivation behind its confirmation.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STAFF_MESSAGES, type StaffInvitation, type StaffMember } from '../../../shared/staff';
import type { PublicUser } from '../../../shared/users';
import { hospitalUser, renderApp } from '../../test/render';
import { StaffTab } from './StaffTab';

const admin: PublicUser = { ...hospitalUser, hospitalId: hospitalUser.id, staffRole: 'hospital_admin' };

const member = (over: Partial<StaffMember>): StaffMember => ({
  id: 'u-c',
  email: 'carla@stmarys.example',
  name: 'Carla Clinician',
  firstName: 'Carla',
  lastName: 'Clinician',
  department: 'Cardiology',
  staffRole: 'clinician',
  status: 'active',
  deactivatedAt: null,
  lastLoginAt: null,
  twoFactorEnabled: false,
  ...over,
});

const invitation: StaffInvitation = {
  id: 'inv-1',
  email: 'fran@stmarys.example',
  firstName: 'Fran',
  lastName: 'Desk',
  department: null,
  staffRole: 'front_desk',
  status: 'pending',
  expiresAt: '2026-12-06T09:00:00.000Z',
  createdAt: '2026-12-03T09:00:00.000Z',
};

const page = <T,>(items: T[]) => ({ body: { items, total: items.length, page: 1, pageSize: 50 } });

const routes = {
  'GET /api/hospital/staff': page([
    member({ id: admin.id, name: 'Grace Hopper', staffRole: 'hospital_admin' }),
    member({}),
  ]),
  'GET /api/hospital/staff/invitations': page([invitation]),
};

describe('StaffTab', () => {
  it('lists the members and the invitations waiting', async () => {
    renderApp(<StaffTab />, { user: admin, routes });
    const table = await screen.findByRole('table', { name: 'Staff members' });
    expect(await within(table).findByText('Carla Clinician')).toBeInTheDocument();
    expect(within(table).getAllByTestId('staff-row')).toHaveLength(2);
    const invitations = await screen.findByRole('table', { name: 'Invitations waiting' });
    expect(await within(invitations).findByText('Fran Desk')).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Resend the invitation to fran@stmarys.example' }),
    ).toBeEnabled();
  });

  it("checks the invite form with the schema's messages, sends what was typed, and shows a 409", async () => {
    const { user, network } = renderApp(<StaffTab />, {
      user: admin,
      routes: {
        ...routes,
        'POST /api/hospital/staff': { status: 409, body: { message: STAFF_MESSAGES.pendingInvite } },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Invite Staff' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite Staff' });
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await within(dialog).findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(within(dialog).getByText('First name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Last name is required')).toBeInTheDocument();
    expect(network.to('POST /api/hospital/staff')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), ' Fran@StMarys.example ');
    await user.type(within(dialog).getByRole('textbox', { name: /First Name/ }), 'Fran');
    await user.type(within(dialog).getByRole('textbox', { name: /Last Name/ }), 'Desk');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText(STAFF_MESSAGES.pendingInvite)).toBeInTheDocument();
    expect(network.to('POST /api/hospital/staff').map((c) => c.body)).toEqual([
      {
        email: 'fran@stmarys.example',
        firstName: 'Fran',
        lastName: 'Desk',
        staffRole: 'clinician',
        department: null,
      },
    ]);
  });

  it('deactivates only once the confirmation (sessions end at once) is accepted, and shows the last-admin refusal', async () => {
    const { user, network } = renderApp(<StaffTab />, {
      user: admin,
      routes: {
        ...routes,
        'POST /api/hospital/staff/u-c/deactivate': {
          status: 409,
          body: { message: STAFF_MESSAGES.lastAdmin },
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Deactivate Carla Clinician' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate this staff member?' });
    expect(dialog).toHaveTextContent('signed out everywhere at once');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(network.to('POST /api/hospital/staff/u-c/deactivate')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Deactivate Carla Clinician' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText(STAFF_MESSAGES.lastAdmin)).toBeInTheDocument();
    expect(network.to('POST /api/hospital/staff/u-c/deactivate')).toHaveLength(1);
  });
});
