import argon2 from 'argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): strong, and quick enough per sign-in.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashSecret = (plain: string): Promise<string> => argon2.hash(plain, OPTIONS);

export async function verifySecret(hash: string, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

let decoy: Promise<string> | undefined;
/** Spends the same time as a real check, so response times do not tell which e-mails exist. */
export async function verifyDecoy(plain: string): Promise<void> {
  decoy ??= hashSecret('decoy password that matches nothing');
  await verifySecret(await decoy, plain);
}
