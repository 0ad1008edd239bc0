// Two-factor set-up and turning it off: the calls made, the code's check before any call, the
// server's refusal under the field, and the recovery codes shown once.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { hospitalUser, renderApp } from '../../test/render';
import { TwoFactorSection } from './TwoFactorSection';

const SECRET = 'JBSWY3DPEHPK3PXP';
const setup = {
  body: { secret: SECRET, otpauthUri: `otpauth://totp/MedLedger:grace?secret=${SECRET}&issuer=MedLedger` },
};

describe('TwoFactorSection', () => {
  it('sets up two-factor sign-in: the secret, the code checked, then the recovery codes once', async () => {
    let enabled = false;
    const codes: unknown[] = [];
    const { user, network } = renderApp(<TwoFactorSection />, {
      user: hospitalUser,
      routes: {
        'GET /api/auth/2fa': () => ({ body: { enabled, recoveryCodesLeft: enabled ? 2 : 0 } }),
        'POST /api/auth/2fa/setup': setup,
        'POST /api/auth/2fa/enable': (call) => {
          codes.push(call.body);
          if (codes.length === 1) return { status: 400, body: { message: 'The code is not valid.' } };
          enabled = true;
          return { body: { recoveryCodes: ['aaaa-bbbb', 'cccc-dddd'] } };
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent(SECRET);
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/png;base64,/),
    );

    const code = screen.getByLabelText('2. Enter the 6-digit code from the app');
    await user.type(code, '12345');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('Enter the 6-digit code your app shows')).toBeInTheDocument();
    expect(network.to('POST /api/auth/2fa/enable')).toHaveLength(0);

    await user.type(code, '6');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('The code is not valid.')).toBeInTheDocument();

    await user.clear(code);
    await user.type(code, '654 321');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['aaaa-bbbb', 'cccc-dddd']);
    // The spaces a user types between the digits are not sent.
    expect(codes).toEqual([{ code: '123456' }, { code: '654321' }]);

    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText(/2 unused recovery codes left/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
  });

  it('turns it off with the password, and shows a wrong password under the field', async () => {
    const { user, network } = renderApp(<TwoFactorSection />, {
      user: { ...hospitalUser, twoFactorEnabled: true },
      routes: {
        'GET /api/auth/2fa': { body: { enabled: true, recoveryCodesLeft: 1 } },
        'POST /api/auth/2fa/disable': { status: 400, body: { message: 'The password is not right.' } },
      },
    });
    expect(await screen.findByText(/1 unused recovery code left/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'not my password');
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor sign-in' }));
    expect(await screen.findByText('The password is not right.')).toBeInTheDocument();
    expect(network.to('POST /api/auth/2fa/disable').map((c) => c.body)).toEqual([
      { password: 'not my password' },
    ]);
  });
});
