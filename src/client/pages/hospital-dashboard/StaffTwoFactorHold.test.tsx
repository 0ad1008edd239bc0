// A member of a hospital that requires two-factor sign-in, without it: the dashboard shows why its
// tabs are closed and where to turn it on, instead of tabs the server would refuse (403).
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../shared/users';
import { hospitalUser, renderApp } from '../../test/render';
import HospitalDashboardPage from './HospitalDashboardPage';

const clinician: PublicUser = {
  ...hospitalUser,
  id: 'u-c',
  hospitalId: hospitalUser.id,
  staffRole: 'clinician',
  staffTwoFactorRequired: true,
  twoFactorEnabled: false,
  providerVerified: true,
};
const billing = {
  body: {
    status: 'active',
    writeAllowed: true,
    trialDaysLeft: null,
    checkoutAvailable: false,
    supportEmail: 'support@medledger.test',
    message: '',
  },
};
const patients = { body: { items: [], total: 0, page: 1, pageSize: 20 } };

describe('the staff two-factor requirement on the dashboard', () => {
  it('shows the requirement and the way to turn it on instead of the patients', async () => {
    renderApp(<HospitalDashboardPage />, {
      user: clinician,
      path: '/hospital-dashboard',
      routes: { 'GET /api/billing/status': billing, 'GET /api/patients': patients },
    });
    const alert = await screen.findByRole('alert', { name: 'Two-factor sign-in required' });
    expect(alert).toHaveTextContent('requires two-factor sign-in for all its staff');
    expect(screen.getByRole('link', { name: 'Set up two-factor sign-in' })).toHaveAttribute(
      'href',
      '/profile/edit',
    );
    expect(screen.queryByRole('button', { name: /Add Patient/ })).not.toBeInTheDocument();
  });

  it('shows the tabs once two-factor is on', async () => {
    renderApp(<HospitalDashboardPage />, {
      user: { ...clinician, twoFactorEnabled: true },
      path: '/hospital-dashboard',
      routes: { 'GET /api/billing/status': billing, 'GET /api/patients': patients },
    });
    expect(await screen.findByRole('navigation', { name: 'Hospital dashboard' })).toBeInTheDocument();
    await screen.findByRole('button', { name: /Add Patient/ });
    expect(screen.queryByRole('alert', { name: 'Two-factor sign-in required' })).not.toBeInTheDocument();
  });
});
