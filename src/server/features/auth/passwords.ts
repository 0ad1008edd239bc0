// argon2id password hashing (OWASP parameters: 19 MiB, 2 passes, 1 lane).
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, { ...OPTIONS, algorithm: 2 });

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// Verified against when the e-mail is unknown, so that both paths take the same time.
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword('medledger-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}
