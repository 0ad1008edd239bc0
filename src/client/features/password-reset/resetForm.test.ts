import { describe, expect, it } from 'vitest';
import { resetProblem } from './resetForm';

describe('new password checks', () => {
  it('accepts matching passwords of 8 characters or more', () => {
    expect(resetProblem('Abcdef1!', 'Abcdef1!')).toBeNull();
  });

  it('refuses a mismatch, then a short password', () => {
    expect(resetProblem('Abcdef1!', 'Abcdef1?')?.title).toBe('Password Mismatch');
    expect(resetProblem('Ab1!', 'Ab1!')?.title).toBe('Weak Password');
  });
});
