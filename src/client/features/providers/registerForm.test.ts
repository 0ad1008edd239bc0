import { describe, expect, it } from 'vitest';
import { registerProblem } from './registerForm';

const ok = { firstName: 'Ana', lastName: 'Lima', password: 'Abcdef1!', confirmPassword: 'Abcdef1!' };

describe('provider registration checks', () => {
  it('lets a complete form through', () => {
    expect(registerProblem(ok)).toBeNull();
  });

  it('asks for both names', () => {
    expect(registerProblem({ ...ok, firstName: ' ' })?.message).toBe('First name is required');
    expect(registerProblem({ ...ok, lastName: '' })?.message).toBe('Last name is required');
  });

  it('refuses different passwords before short ones, with the signup toasts', () => {
    expect(registerProblem({ ...ok, confirmPassword: 'x' })?.title).toBe('Password Mismatch');
    expect(registerProblem({ ...ok, password: 'Ab1!', confirmPassword: 'Ab1!' })).toEqual({
      title: 'Weak Password',
      message: 'Password must be at least 8 characters long.',
    });
  });
});
