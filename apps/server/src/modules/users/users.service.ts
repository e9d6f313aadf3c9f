import type {
  ListQuery,
  UserCreate,
  UserRegister,
  UserUpdate,
  UserUpdateMe,
} from '@palisade/contract';
import { type ListResponse, type User } from '@palisade/contract';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { orConflict } from '../../db/errors.js';
import { buildListSql } from '../../db/list-query.js';
import { AppError, forbidden, notFound } from '../../lib/app-error.js';
import { hashSecret, verifySecret } from '../../lib/passwords.js';
import { assertRole, type Principal } from '../../plugins/auth.js';
import { changedFields, recordAudit, userActor, type AuditEntry } from '../audit/audit.service.js';
import { presentUser } from './users.presenter.js';
import {
  USER_LIST_SPEC,
  type UserPatch,
  type UserRow,
  usersRepository as repo,
} from './users.repository.js';

/** A password change shows as this, never as a hash. */
const PASSWORD_CHANGED = { password: 'changed' };

/** The record of a change to a user: what differs in the presented user, never a hash. */
function userChange(
  principal: Principal,
  before: User,
  after: User,
  passwordChanged: boolean,
): AuditEntry {
  const diff = changedFields(before, after);
  return {
    orgId: after.organization_id,
    actor: userActor(principal),
    action: 'update',
    object: { type: 'user', id: after.id, name: after.email },
    before: passwordChanged ? { ...diff.before, password: '' } : diff.before,
    after: passwordChanged ? { ...diff.after, ...PASSWORD_CHANGED } : diff.after,
  };
}

export const EMAIL_TAKEN = 'User already exist';
const LAST_ADMINISTRATOR = 'An organization needs at least one active Administrator';

/** The default organization's first active Administrator, if any. */
/** For other modules: how many of ids are users of the organization. */
export const countOwnUsers = (db: Queryable, orgId: number, ids: number[]) =>
  repo.countInOrg(db, orgId, ids);

export const findDefaultAdministrator = (db: Queryable) => repo.findDefaultAdministrator(db);

export function createUsersService(db: Database) {
  async function loadInOrg(principal: Principal, id: number, tx: Queryable = db): Promise<UserRow> {
    // Another organization's user is "not found": its existence is not the caller's business.
    const row = await repo.findInOrg(tx, principal.orgId, id);
    if (!row) throw notFound('User');
    return row;
  }

  async function reload(id: number, tx: Queryable = db): Promise<User> {
    const row = await repo.findById(tx, id);
    if (!row) throw notFound('User');
    return presentUser(row);
  }

  /**
   * Starts a change to the organization's users as one serialized step: with the organization
   * locked, the caller must still be an active Administrator (another may have demoted them a
   * moment ago), and the target is read as the previous change left it.
   */
  async function lockForAdministration(
    tx: Queryable,
    principal: Principal,
    id: number,
  ): Promise<UserRow> {
    await repo.lockOrganization(tx, principal.orgId);
    const caller = await repo.findInOrg(tx, principal.orgId, principal.userId);
    if (!caller || !caller.is_active || caller.role !== 'Administrator') throw forbidden();
    return loadInOrg(principal, id, tx);
  }

  /** Refuses a change that would leave the organization without an active Administrator. */
  async function keepAnAdministrator(
    tx: Queryable,
    target: UserRow,
    after: { role: string; isActive: boolean } | null,
  ) {
    const wasAdmin = target.role === 'Administrator' && target.is_active;
    const staysAdmin = after !== null && after.role === 'Administrator' && after.isActive;
    if (!wasAdmin || staysAdmin) return;
    if ((await repo.countActiveAdministrators(tx, target.org_id)) <= 1) {
      throw new AppError('conflict', LAST_ADMINISTRATOR);
    }
  }

  return {
    me: (principal: Principal) => reload(principal.userId),

    async updateMe(principal: Principal, body: z.output<typeof UserUpdateMe>): Promise<User> {
      const row = await loadInOrg(principal, principal.userId);
      const patch: UserPatch = {
        email: body.email,
        firstName: body.first_name,
        lastName: body.last_name,
      };
      if (body.password !== undefined) {
        if (!(await verifySecret(row.password_hash, body.current_password ?? ''))) {
          throw new AppError('bad_request', 'Incorrect password');
        }
        patch.passwordHash = await hashSecret(body.password);
      }
      return db.transaction(async (tx) => {
        await orConflict(
          () => repo.update(tx, row.id, patch),
          'The user with this e-mail already exists',
        );
        const after = await reload(row.id, tx);
        const changed = patch.passwordHash !== undefined;
        await recordAudit(tx, userChange(principal, presentUser(row), after, changed));
        return after;
      });
    },

    async list(principal: Principal, query: ListQuery): Promise<ListResponse<User>> {
      assertRole(principal, 'Administrator');
      const { rows, total } = await repo.list(
        db,
        buildListSql(query, USER_LIST_SPEC, [principal.orgId]),
      );
      return { data: rows.map(presentUser), recordsTotal: total };
    },

    /** One user of the caller's organization (Administrator only). */
    async get(principal: Principal, id: number): Promise<User> {
      assertRole(principal, 'Administrator');
      return presentUser(await loadInOrg(principal, id));
    },

    async create(principal: Principal, body: z.output<typeof UserCreate>): Promise<User> {
      assertRole(principal, 'Administrator');
      const passwordHash = await hashSecret(body.password);
      return db.transaction(async (tx) => {
        const id = await orConflict(
          () =>
            repo.insert(tx, {
              orgId: principal.orgId,
              email: body.email,
              passwordHash,
              firstName: body.first_name,
              lastName: body.last_name,
              role: body.role,
              isActive: body.is_active,
            }),
          'The user with this e-mail already exists',
        );
        const user = await reload(id, tx);
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'create',
          object: { type: 'user', id, name: user.email },
          after: user,
        });
        return user;
      });
    },

    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof UserUpdate>,
    ): Promise<User> {
      assertRole(principal, 'Administrator');
      const passwordHash =
        body.password === undefined ? undefined : await hashSecret(body.password);
      return db.transaction(async (tx) => {
        const target = await lockForAdministration(tx, principal, id);
        await keepAnAdministrator(tx, target, {
          role: body.role ?? target.role,
          isActive: body.is_active ?? target.is_active,
        });
        await orConflict(
          () =>
            repo.update(tx, id, {
              email: body.email,
              passwordHash,
              firstName: body.first_name,
              lastName: body.last_name,
              role: body.role,
              isActive: body.is_active,
            }),
          'The user with this e-mail already exists',
        );
        const after = await reload(id, tx);
        const changed = passwordHash !== undefined;
        await recordAudit(tx, userChange(principal, presentUser(target), after, changed));
        return after;
      });
    },

    async remove(principal: Principal, id: number): Promise<void> {
      assertRole(principal, 'Administrator');
      if (id === principal.userId)
        throw new AppError('conflict', 'You cannot delete your own account');
      await db.transaction(async (tx) => {
        const target = await lockForAdministration(tx, principal, id);
        await keepAnAdministrator(tx, target, null);
        await repo.delete(tx, id);
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'delete',
          object: { type: 'user', id, name: target.email },
          before: presentUser(target),
        });
      });
    },

    /** Self-registration: a new organization whose first user is its Administrator. */
    async register(body: z.output<typeof UserRegister>): Promise<User> {
      if (await repo.findByEmail(db, body.email)) throw new AppError('bad_request', EMAIL_TAKEN);
      const passwordHash = await hashSecret(body.password);
      const id = await db
        .transaction(async (tx) => {
          const orgId = await repo.insertOrganization(tx, body.organization, false);
          const userId = await orConflict(
            () =>
              repo.insert(tx, {
                orgId,
                email: body.email,
                passwordHash,
                firstName: body.first_name,
                lastName: body.last_name,
                role: 'Administrator',
                isActive: true,
              }),
            EMAIL_TAKEN,
          );
          const created = await reload(userId, tx);
          // The new organization's first records: it was opened, by the user it opened with.
          const actor = { kind: 'user' as const, id: userId, name: body.email };
          await recordAudit(
            tx,
            {
              orgId,
              actor,
              action: 'create',
              object: { type: 'organization', id: orgId, name: body.organization },
            },
            {
              orgId,
              actor,
              action: 'create',
              object: { type: 'user', id: userId, name: body.email },
              after: created,
            },
          );
          return userId;
        })
        .catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'conflict')
            throw new AppError('bad_request', EMAIL_TAKEN);
          throw error;
        });
      return reload(id);
    },

    /** For sign-in and recovery: the row with its hash, or undefined. */
    findForSignIn: (email: string) => repo.findByEmail(db, email),

    /**
     * Sets a password (reset flow) and revokes every token issued before; records the reset,
     * by the user who held the link, in the same transaction.
     */
    async setPassword(
      tx: Queryable,
      userId: number,
      password: string,
      requestId?: string,
    ): Promise<void> {
      await repo.update(tx, userId, { passwordHash: await hashSecret(password) });
      const row = await repo.findById(tx, userId);
      if (!row) throw notFound('User');
      await recordAudit(tx, {
        orgId: row.org_id,
        actor: { kind: 'user', id: row.id, name: row.email, ...(requestId ? { requestId } : {}) },
        action: 'password_reset',
        object: { type: 'user', id: row.id, name: row.email },
        after: PASSWORD_CHANGED,
      });
    },

    /**
     * First start: when no user exists, creates the default organization and its
     * Administrator. Returns what was created so the caller can say how to sign in.
     */
    async bootstrapAdministrator(email: string, password: string): Promise<{ created: boolean }> {
      const passwordHash = await hashSecret(password);
      return db.transaction(async (tx) => {
        await repo.lockFirstStart(tx);
        if ((await repo.countAll(tx)) > 0) return { created: false };
        const orgId = await repo.insertOrganization(tx, 'Default', true);
        await repo.insert(tx, {
          orgId,
          email,
          passwordHash,
          firstName: 'Admin',
          lastName: '',
          role: 'Administrator',
          isActive: true,
        });
        return { created: true };
      });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
