import { randomBytes, randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createUsersService } from './modules/users/users.service.js';

export const DEFAULT_ADMIN_EMAIL = 'admin@palisade.local';

export type BootstrapResult =
  { created: false } | { created: true; email: string; generatedPassword: string | undefined };

/**
 * First start: when the database has no user, creates the default organization and its
 * Administrator from ADMIN_EMAIL / ADMIN_PASSWORD, generating a password when none is set.
 */
export async function bootstrapAdministrator(app: FastifyInstance): Promise<BootstrapResult> {
  const { config, db } = app.ctx;
  const email = config.adminEmail ?? DEFAULT_ADMIN_EMAIL;
  const generatedPassword = config.adminPassword ? undefined : generatePassword();
  const password = config.adminPassword ?? generatedPassword ?? '';
  const { created } = await createUsersService(db).bootstrapAdministrator(email, password);
  return created ? { created, email, generatedPassword } : { created };
}

/** 20 random characters plus one of each class the password rules ask for. */
function generatePassword(): string {
  const pick = (set: string) => set[randomInt(set.length)] ?? '';
  return `${randomBytes(15).toString('base64url')}${pick('!@#$%')}${pick('ABCDEFGHJKLMNPQRSTUVWXYZ')}${pick('23456789')}`;
}
