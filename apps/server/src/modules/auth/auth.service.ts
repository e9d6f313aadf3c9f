import { createHash, randomBytes } from 'node:crypto';
import type { AccessToken, User, UserRegister } from '@palisade/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.js';
import type { AppContext } from '../../plugins/context.js';
import { AppError, rateLimited } from '../../lib/app-error.js';
import { verifyDecoy, verifySecret } from '../../lib/passwords.js';
import type { UsersService } from '../users/users.service.js';
import { authRepository as repo, type AttemptCount } from './auth.repository.js';
import { recordAudit, type AuditEntry } from '../audit/audit.service.js';

/** Limits on guessing: per e-mail from one address, and per address over all e-mails. */
/** Failures counted for a sign-in limit's key in its window (agent and enrolment share them). */
export const countFailedAttempts = (db: Queryable, key: string, windowSeconds: number) =>
  repo.failures(db, key, windowSeconds);

export const recordFailedAttempt = (db: Queryable, key: string, windowSeconds: number) =>
  repo.recordFailure(db, key, windowSeconds);

export const clearFailedAttempts = (db: Queryable, key: string) => repo.clear(db, key);

export const LOGIN_LIMITS = {
  windowSeconds: 15 * 60,
  perUserAndAddress: 5,
  perAddress: 30,
} as const;
export const RECOVERY_LIMITS = { windowSeconds: 15 * 60, perUser: 3, perAddress: 10 } as const;
export const REGISTRATION_LIMITS = { windowSeconds: 60 * 60, perAddress: 10 } as const;
export const RESET_TOKEN_TTL_SECONDS = 60 * 60;

/** A 429 when any limit is exceeded, retryable when the last exceeded window ends. */
function throwIfLimited(exceeded: (AttemptCount | undefined)[]): void {
  const waits = exceeded.flatMap((count) => (count ? [count.retryAfterSeconds] : []));
  if (waits.length > 0) throw rateLimited(Math.max(...waits));
}
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A sign-in attempt: the form's fields, where it came from, and the request making it. */
export interface SignInAttempt {
  email: string;
  password: string;
  address: string;
  requestId?: string;
}

export function createAuthService(ctx: AppContext, users: UsersService) {
  const { db, tokens, mailer, config } = ctx;

  return {
    async login({ email, password, address, requestId }: SignInAttempt): Promise<AccessToken> {
      const userKey = `login:user:${email.toLowerCase()}|${address}`;
      const addressKey = `login:ip:${address}`;
      const window = LOGIN_LIMITS.windowSeconds;
      const [perUser, perAddress] = await Promise.all([
        repo.failures(db, userKey, window),
        repo.failures(db, addressKey, window),
      ]);
      const exceeded = [
        perUser.failures >= LOGIN_LIMITS.perUserAndAddress ? perUser : undefined,
        perAddress.failures >= LOGIN_LIMITS.perAddress ? perAddress : undefined,
      ];
      throwIfLimited(exceeded);

      const user = await users.findForSignIn(email);
      const valid = user
        ? await verifySecret(user.password_hash, password)
        : (await verifyDecoy(password), false);
      const attempt = (ok: boolean, orgId: number): AuditEntry => ({
        orgId,
        // A failed attempt names the e-mail tried, not the user: whoever typed it is unknown.
        actor: {
          kind: 'user',
          id: ok ? (user?.id ?? null) : null,
          name: email,
          ...(requestId ? { requestId } : {}),
        },
        action: ok ? 'sign_in' : 'sign_in_failed',
        object: { type: 'session', id: user?.id ?? null, name: email },
        after: { address },
      });
      if (!user || !valid) {
        await db.transaction(async (tx) => {
          await repo.recordFailure(tx, userKey, window);
          await repo.recordFailure(tx, addressKey, window);
          // An e-mail no user has belongs to no organization: that attempt has no log to go to.
          if (user) await recordAudit(tx, attempt(false, user.org_id));
        });
        throw new AppError('bad_request', 'Incorrect email or password');
      }
      if (!user.is_active) {
        await recordAudit(db, attempt(false, user.org_id));
        throw new AppError('bad_request', 'Inactive user');
      }
      await db.transaction(async (tx) => {
        await repo.clear(tx, userKey);
        await recordAudit(tx, attempt(true, user.org_id));
      });
      return {
        access_token: await tokens.issue({ subject: user.id, tokenVersion: user.token_version }),
        token_type: 'bearer',
      };
    },

    /** Self-registration, limited per address so nobody scripts a thousand organizations. */
    async register(body: z.output<typeof UserRegister>, address: string): Promise<User> {
      const attempts = await repo.recordFailure(
        db,
        `register:ip:${address}`,
        REGISTRATION_LIMITS.windowSeconds,
      );
      throwIfLimited([attempts.failures > REGISTRATION_LIMITS.perAddress ? attempts : undefined]);
      return users.register(body);
    },

    /** Mails a single-use link valid for an hour; without SMTP the link goes to the log. */
    async recoverPassword(email: string, address: string): Promise<void> {
      const window = RECOVERY_LIMITS.windowSeconds;
      const perUser = await repo.recordFailure(db, `recover:user:${email.toLowerCase()}`, window);
      const perAddress = await repo.recordFailure(db, `recover:ip:${address}`, window);
      throwIfLimited([
        perUser.failures > RECOVERY_LIMITS.perUser ? perUser : undefined,
        perAddress.failures > RECOVERY_LIMITS.perAddress ? perAddress : undefined,
      ]);
      const user = await users.findForSignIn(email);
      if (!user) throw new AppError('not_found', 'User not found');
      if (!user.is_active) throw new AppError('forbidden', 'Inactive user');

      const token = randomBytes(32).toString('base64url');
      await repo.insertResetToken(db, sha256(token), user.id, RESET_TOKEN_TTL_SECONDS);
      const link = `${config.publicUrl}/reset-password?token=${token}`;
      await mailer.send({
        to: user.email,
        subject: 'Palisade: reset your password',
        text:
          `Someone asked to reset the Palisade password of ${user.email}.\n\n` +
          `To choose a new password, open this link within an hour:\n${link}\n\n` +
          `If it was not you, ignore this message: your password stays as it is.\n`,
      });
    },

    async resetPassword(token: string, newPassword: string, requestId?: string): Promise<void> {
      await db.transaction(async (tx) => {
        const userId = await repo.consumeResetToken(tx, sha256(token));
        if (userId === undefined) throw new AppError('bad_request', 'Invalid token');
        await users.setPassword(tx, userId, newPassword, requestId);
        await repo.revokeResetTokens(tx, userId);
      });
    },
  };
}
