// The not-verified notice of a self-signed-up hospital: what it means for its patients, and for an
// admin the request (sent with the shared schema's checks) or the one waiting.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../shared/users';
import { hospitalUser, renderApp } from '../../test/render';
import { VerificationNotice } from './VerificationNotice';

const admin: PublicUser = {
  ...hospitalUser,
  hospitalId: hospitalUser.id,
  staffRole: 'hospital_admin',
  providerVerified: false,
};
const notAsked = { body: { verified: false, verifiedAt: null, request: null } };

describe('VerificationNotice', () => {
  it('says nothing to a verified hospital', () => {
    renderApp(<VerificationNotice />, { user: { ...admin, providerVerified: true } });
    expect(screen.queryByText(/not verified by MedLedger/)).not.toBeInTheDocument();
  });

  it('tells a clinician what it means and who can apply, without asking the server', async () => {
    const { network } = renderApp(<VerificationNotice />, {
      user: { ...admin, id: 'u-c', staffRole: 'clinician' },
    });
    const note = await screen.findByRole('note', { name: /not verified by MedLedger/ });
    expect(note).toHaveTextContent('Provider not verified by MedLedger');
    expect(note).toHaveTextContent('A hospital admin of your organization can apply');
    expect(within(note).queryByRole('button')).not.toBeInTheDocument();
    expect(network.to('GET /api/hospital/verification')).toHaveLength(0);
  });

  it('lets an admin apply, refuses a bad website before sending, and then shows the request waiting', async () => {
    const sent = { id: 'app-1', status: 'pending', createdAt: '2026-12-03T10:00:00.000Z', reviewedAt: null };
    let asked = false;
    const { user, network } = renderApp(<VerificationNotice />, {
      user: admin,
      routes: {
        'GET /api/hospital/verification': () =>
          asked ? { body: { verified: false, verifiedAt: null, request: sent } } : notAsked,
        'POST /api/hospital/verification': {
          status: 201,
          body: {
            verified: false,
            verifiedAt: null,
            request: sent,
            message: 'Your request for verification was sent.',
          },
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Apply for verification' }));
    const dialog = await screen.findByRole('dialog', { name: 'Apply for verification' });
    await user.type(await within(dialog).findByLabelText('Website'), 'not a site');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(within(dialog).getByLabelText('Website')).toHaveAttribute('aria-invalid', 'true');
    expect(network.to('POST /api/hospital/verification')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Website'));
    await user.type(within(dialog).getByLabelText('NPI Number'), '1234567890');
    asked = true;
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Your request for verification was sent.')).toBeInTheDocument();
    expect(network.to('POST /api/hospital/verification').map((c) => c.body)).toEqual([
      { npiNumber: '1234567890', licenseNumber: null, website: null, address: null, contactPhone: null },
    ]);
    expect(await screen.findByText(/is waiting for review/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Apply for verification' })).not.toBeInTheDocument();
  });
});
