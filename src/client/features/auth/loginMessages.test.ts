import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/request';
import { accessDeniedToast, isWrongPortal, loginFailedToast } from './loginMessages';

describe('login toasts', () => {
  it('tells a patient on the hospital login that it is for healthcare providers only', () => {
    expect(accessDeniedToast('hospital')).toEqual({
      title: 'Access Denied',
      message: 'This login is for healthcare providers only.',
    });
    expect(accessDeniedToast('patient').message).toBe('This login is for patients only.');
  });

  it('words the administrator refusal as one line with the brand', () => {
    expect(accessDeniedToast('admin')).toEqual({
      message: 'Access Denied: This login is for MedLedger team administrators only.',
    });
  });

  it('says invalid credentials for a 401 whatever the server wrote', () => {
    const error = new ApiError(401, 'Unauthorized', '{"message":"Wrong e-mail or password."}');
    expect(loginFailedToast('patient', error)).toEqual({
      title: 'Login Failed',
      message: 'Invalid credentials. Please try again.',
    });
    expect(loginFailedToast('admin', error)).toEqual({
      message: 'Login Failed: Invalid credentials. Please try again.',
    });
  });

  it("shows the server's reason when sign-in is throttled (429)", () => {
    const error = new ApiError(429, 'Too Many Requests', '{"message":"Too many failed sign-in attempts."}');
    expect(loginFailedToast('hospital', error).message).toBe('Too many failed sign-in attempts.');
  });

  it("tells the server's wrong-portal refusal apart from a suspended account (both 403)", () => {
    const wrongPortal = new ApiError(
      403,
      'Forbidden',
      '{"message":"Access Denied: This login is for healthcare providers only."}',
    );
    expect(isWrongPortal('hospital', wrongPortal)).toBe(true);
    expect(isWrongPortal('patient', wrongPortal)).toBe(false);
    const suspended = new ApiError(
      403,
      'Forbidden',
      '{"message":"This account is suspended. Contact support."}',
    );
    expect(isWrongPortal('hospital', suspended)).toBe(false);
    expect(loginFailedToast('hospital', suspended)).toEqual({
      title: 'Login Failed',
      message: 'This account is suspended. Contact support.',
    });
  });
});
