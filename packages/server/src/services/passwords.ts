import { hash, verify } from '@node-rs/argon2';

/** Argon2id with the OWASP-recommended minimum cost (19 MiB, 2 passes, 1 lane). */
const options = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_ENCRYPTION_METHOD = 'Argon2id';

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export function verifyPassword(encoded: string, password: string): Promise<boolean> {
  return verify(encoded, password);
}
