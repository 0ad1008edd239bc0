// /join-staff: the invited address read-only, the registration it sends, the server's refusal
// shown, and the way to sign in once the account exists.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STAFF_MESSAGES } from '../../../shared/staff';
import { renderApp } from '../../test/render';
import JoinStaffPage from './JoinStaffPage';

const path = '/join-staff?token=sel.verifier&email=fran%40stmarys.example';

async function fill(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByRole('textbox', { name: /First Name/ }), 'Fran');
  await user.type(screen.getByRole('textbox', { name: /Last Name/ }), 'Desk');
  await user.type(screen.getByLabelText(/^Password/), 'correct horse battery');
  await user.type(screen.getByLabelText(/^Confirm Password/), 'correct horse battery');
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('JoinStaffPage', () => {
  it('registers with the invitation and the invited address, then links to the provider sign-in', async () => {
    const { user, network } = renderApp(<JoinStaffPage />, {
      path,
      routes: { 'POST /api/auth/register': { status: 201, body: { message: 'Account created.' } } },
    });
    expect(await screen.findByRole('textbox', { name: /Email Address/ })).toHaveValue('fran@stmarys.example');
    expect(screen.getByRole('textbox', { name: /Email Address/ })).toHaveAttribute('readonly');
    await fill(user);
    expect(await screen.findByRole('link', { name: 'Go to Healthcare Provider Login' })).toHaveAttribute(
      'href',
      '/hospital-login',
    );
    expect(network.to('POST /api/auth/register').map((c) => c.body)).toEqual([
      {
        role: 'hospital',
        inviteToken: 'sel.verifier',
        email: 'fran@stmarys.example',
        password: 'correct horse battery',
        firstName: 'Fran',
        lastName: 'Desk',
      },
    ]);
  });

  it("shows the server's message when the invitation has expired", async () => {
    const { user } = renderApp(<JoinStaffPage />, {
      path,
      routes: { 'POST /api/auth/register': { status: 410, body: { message: STAFF_MESSAGES.inviteExpired } } },
    });
    await fill(user);
    expect((await screen.findAllByText(STAFF_MESSAGES.inviteExpired)).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeEnabled();
  });

  it('says the link is invalid without a token', async () => {
    renderApp(<JoinStaffPage />, { path: '/join-staff' });
    expect(await screen.findByText(STAFF_MESSAGES.inviteInvalid)).toBeInTheDocument();
  });
});
