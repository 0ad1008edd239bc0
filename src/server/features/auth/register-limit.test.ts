// Sign-ups are rate-limited per address: an MRN cannot be guessed at full speed, and each try no
// longer costs an argon2 hash without bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, STRONG_PASSWORD, uniqueEmail, type TestApp } from '../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ registerMaxPerIp: 3 });
});
afterAll(async () => {
  await t.close();
});

const guess = (mrn: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: ip,
    payload: {
      email: uniqueEmail('guesser'),
      password: STRONG_PASSWORD,
      firstName: 'Eve',
      lastName: 'Guesser',
      role: 'patient',
      mrn,
    },
  });

describe('sign-up rate limit', () => {
  it('answers 429 with a message once an address has used its tries, and only that address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await guess(`MRN2026${String(100000 + i)}`, '10.20.30.40')).statusCode);
    expect(statuses.slice(0, 3)).toEqual([400, 400, 400]); // wrong MRNs, refused as usual
    expect(statuses.slice(3)).toEqual([429, 429]);
    const limited = await guess('MRN2026999999', '10.20.30.40');
    expect(limited.json().message).toMatch(/rate limit/i);
    expect((await guess('MRN2026999998', '10.20.30.41')).statusCode).toBe(400);
  });
});
