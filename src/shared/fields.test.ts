import { describe, expect, it } from 'vitest';
import { emailSchema, loginSchema } from './auth';
import { forgotPasswordSchema } from './providers';
import { familyContactInputSchema } from './family-contacts';
import { mailAddress } from './fields';
import { patientInputSchema } from './patients';

describe('mailAddress', () => {
  const address = mailAddress('Please enter a valid email address');

  it('takes addresses at the limits of RFC 5321', () => {
    expect(address.safeParse(`${'a'.repeat(64)}@example.test`).success).toBe(true);
    expect(address.safeParse(`ada@${'b'.repeat(63)}.example`).success).toBe(true);
  });

  it('refuses a local part over 64, a domain label over 63 or an address over 254 characters', () => {
    for (const bad of [
      `${'a'.repeat(65)}@example.test`,
      `ada@${'b'.repeat(64)}.example`,
      `ada@${Array.from({ length: 5 }, () => 'b'.repeat(60)).join('.')}.test`, // 312 characters
      'not-an-address',
    ]) {
      const parsed = address.safeParse(bad);
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0].message).toBe('Please enter a valid email address');
    }
  });

  it('is the check of every e-mail field: sign-up, patients, family contacts', () => {
    const long = `${'a'.repeat(65)}@example.test`;
    expect(emailSchema.safeParse(long).success).toBe(false);
    expect(patientInputSchema.safeParse({ email: long }).success).toBe(false);
    expect(
      familyContactInputSchema.safeParse({
        firstName: 'Jo',
        lastName: 'Lee',
        relationship: 'child',
        email: long,
      }).success,
    ).toBe(false);
    expect(emailSchema.parse(' Ada@Example.TEST ')).toBe('ada@example.test');
    // An account made before these limits still signs in and can reset its password.
    expect(loginSchema.safeParse({ email: long, password: 'x' }).success).toBe(true);
    expect(forgotPasswordSchema.safeParse({ email: long }).success).toBe(true);
  });
});
