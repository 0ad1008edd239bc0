// The sign-in form: what it sends, where a sign-in goes, the portal check and the two-factor step.
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '../../../shared/users';
import { hospitalUser, renderApp } from '../../test/render';
import type { Routes as NetworkRoutes } from '../../test/network';
import { PatientLoginPage } from './LoginPages';

const patient: PublicUser = { ...hospitalUser, id: 'u-patient', role: 'patient', hospitalName: null };

function renderLogin(routes: NetworkRoutes) {
  const preload = { prepare: vi.fn(), start: vi.fn() };
  const rendered = renderApp(
    <Routes>
      <Route path="/patient-login" element={<PatientLoginPage preload={preload} />} />
      <Route path="/patient-dashboard" element={<h1>My dashboard</h1>} />
    </Routes>,
    { routes, path: '/patient-login' },
  );
  return { ...rendered, preload };
}

async function signIn(user: ReturnType<typeof renderLogin>['user']) {
  await user.type(screen.getByLabelText(/Email Address/), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'correct horse');
  await user.click(screen.getByRole('checkbox', { name: 'Remember me' }));
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('LoginForm', () => {
  it("sends the portal's sign-in, starts its page's code, and goes to its page", async () => {
    const { user, network, preload } = renderLogin({ 'POST /api/auth/login': { body: { user: patient } } });
    await signIn(user);
    expect(await screen.findByRole('heading', { name: 'My dashboard' })).toBeInTheDocument();
    expect(network.to('POST /api/auth/login').map((c) => c.body)).toEqual([
      { email: 'ada@example.com', password: 'correct horse', remember: true, portal: 'patient' },
    ]);
    expect(preload.prepare).toHaveBeenCalled();
    expect(preload.start).toHaveBeenCalledWith('/patient-dashboard');
  });

  it('says "Access Denied" and stays when another role signs in on this portal', async () => {
    const { user } = renderLogin({ 'POST /api/auth/login': { body: { user: hospitalUser } } });
    await signIn(user);
    expect(await screen.findByText('This login is for patients only.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(screen.queryByRole('heading', { name: 'My dashboard' })).not.toBeInTheDocument();
  });

  it('shows "Invalid credentials" for a wrong password', async () => {
    const { user } = renderLogin({
      'POST /api/auth/login': { status: 401, body: { message: 'Invalid email or password' } },
    });
    await signIn(user);
    expect(await screen.findByText('Invalid credentials. Please try again.')).toBeInTheDocument();
  });

  it("asks for the second factor, shows the server's refusal under the field, then signs in", async () => {
    const codes: unknown[] = [];
    const { user, network } = renderLogin({
      'POST /api/auth/login': { body: { twoFactorRequired: true, message: 'Enter your code' } },
      'POST /api/auth/2fa/verify': (call) => {
        codes.push(call.body);
        return codes.length === 1
          ? { status: 401, body: { message: 'That code is not right. Try again.' } }
          : { body: { user: patient } };
      },
    });
    await signIn(user);
    const code = await screen.findByLabelText(/Authentication code/);
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not right. Try again.')).toBeInTheDocument();
    expect(code).toHaveAccessibleDescription('That code is not right. Try again.');

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'My dashboard' })).toBeInTheDocument();
    expect(network.to('POST /api/auth/2fa/verify').map((c) => c.body)).toEqual([
      { code: '000000' },
      { code: '123456' },
    ]);
  });

  it('goes back to the password when the pending sign-in has expired', async () => {
    const { user } = renderLogin({
      'POST /api/auth/login': { body: { twoFactorRequired: true, message: 'Enter your code' } },
      'POST /api/auth/2fa/verify': {
        status: 401,
        body: { message: 'This sign-in has expired: sign in with your password again.' },
      },
    });
    await signIn(user);
    await user.type(await screen.findByLabelText(/Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.queryByLabelText(/Authentication code/)).not.toBeInTheDocument();
  });
});
