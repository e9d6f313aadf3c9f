import type { Role } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import { pagedList, type ListSql, type ListSpec } from '../../db/list-query.js';

export interface UserRow {
  id: number;
  org_id: number;
  organization: string;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  is_active: boolean;
  password_hash: string;
  token_version: number;
  created_at: Date;
}

const SELECT_USER = `
  SELECT u.id, u.org_id, o.name AS organization, u.email, u.first_name, u.last_name, u.role,
         u.is_active, u.password_hash, u.token_version, u.created_at
    FROM users u JOIN organizations o ON o.id = u.org_id`;

export const USER_LIST_SPEC: ListSpec = {
  sortable: {
    id: 'u.id',
    email: 'lower(u.email)',
    first_name: 'lower(u.first_name)',
    last_name: 'lower(u.last_name)',
    role: 'u.role',
    is_active: 'u.is_active',
    created_at: 'u.created_at',
  },
  filterable: {
    id: { sql: 'u.id', type: 'int' },
    role: { sql: 'u.role', type: 'text' },
    is_active: { sql: 'u.is_active', type: 'bool' },
    email: { sql: 'u.email', type: 'text' },
  },
  searchable: ['u.email', 'u.first_name', 'u.last_name'],
  defaultSort: 'u.id ASC',
};

/** What a request's principal is made of. */
export interface PrincipalRow {
  id: number;
  org_id: number;
  role: Role;
  email: string;
  token_version: number;
}

export interface NewUser {
  orgId: number;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  role: Role;
  isActive: boolean;
}

export interface UserPatch {
  email?: string;
  passwordHash?: string;
  firstName?: string;
  lastName?: string;
  role?: Role;
  isActive?: boolean;
}

export const usersRepository = {
  async findById(db: Queryable, id: number): Promise<UserRow | undefined> {
    const [row] = await db.query<UserRow>(`${SELECT_USER} WHERE u.id = $1`, [id]);
    return row;
  },

  async findInOrg(db: Queryable, orgId: number, id: number): Promise<UserRow | undefined> {
    const [row] = await db.query<UserRow>(`${SELECT_USER} WHERE u.org_id = $1 AND u.id = $2`, [
      orgId,
      id,
    ]);
    return row;
  },

  async findByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
    const [row] = await db.query<UserRow>(`${SELECT_USER} WHERE lower(u.email) = lower($1)`, [
      email,
    ]);
    return row;
  },

  list(db: Queryable, sql: ListSql) {
    return pagedList<UserRow>(
      db,
      { select: SELECT_USER, countFrom: 'FROM users u', scope: 'u.org_id = $1' },
      sql,
    );
  },

  async insert(db: Queryable, user: NewUser): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO users (org_id, email, password_hash, first_name, last_name, role, is_active)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [
        user.orgId,
        user.email,
        user.passwordHash,
        user.firstName,
        user.lastName,
        user.role,
        user.isActive,
      ],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return row.id;
  },

  /** Applies the given fields; a new password also bumps token_version (revoking tokens). */
  async update(db: Queryable, id: number, patch: UserPatch): Promise<void> {
    const sets: string[] = [];
    const params: (string | boolean | number)[] = [];
    const set = (column: string, value: string | boolean | undefined) => {
      if (value === undefined) return;
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    set('email', patch.email);
    set('password_hash', patch.passwordHash);
    set('first_name', patch.firstName);
    set('last_name', patch.lastName);
    set('role', patch.role);
    set('is_active', patch.isActive);
    if (patch.passwordHash !== undefined) sets.push('token_version = token_version + 1');
    if (sets.length === 0) return;
    params.push(id);
    await db.query(
      `UPDATE users SET ${sets.join(', ')}, updated_at = now() WHERE id = $${params.length}`,
      params,
    );
  },

  /** How many of ids are users of the organization. */
  async countInOrg(db: Queryable, orgId: number, ids: number[]): Promise<number> {
    const [row] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM users WHERE org_id = $1 AND id = ANY($2::int[])',
      [orgId, ids],
    );
    return row?.n ?? 0;
  },

  async delete(db: Queryable, id: number): Promise<void> {
    await db.query('DELETE FROM users WHERE id = $1', [id]);
  },

  /**
   * Holds the organization's row until the transaction ends, so that changes to its
   * Administrators happen one after another and each sees the one before.
   */
  async lockOrganization(db: Queryable, orgId: number): Promise<void> {
    await db.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
  },

  async countActiveAdministrators(db: Queryable, orgId: number): Promise<number> {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM users WHERE org_id = $1 AND role = 'Administrator' AND is_active`,
      [orgId],
    );
    return row?.n ?? 0;
  },

  async findActivePrincipal(db: Queryable, id: number): Promise<PrincipalRow | undefined> {
    const [row] = await db.query<PrincipalRow>(
      'SELECT id, org_id, role, email, token_version FROM users WHERE id = $1 AND is_active',
      [id],
    );
    return row;
  },

  /** The default organization's first active Administrator (AUTH_DISABLED, DEMO_FLEET). */
  async findDefaultAdministrator(db: Queryable): Promise<PrincipalRow | undefined> {
    const [row] = await db.query<PrincipalRow>(
      `SELECT u.id, u.org_id, u.role, u.email, u.token_version
         FROM users u JOIN organizations o ON o.id = u.org_id
        WHERE o.is_default AND u.role = 'Administrator' AND u.is_active
        ORDER BY u.id LIMIT 1`,
    );
    return row;
  },

  /** Serialises first starts, so two replicas booting together create one Administrator. */
  async lockFirstStart(db: Queryable): Promise<void> {
    await db.query('SELECT pg_advisory_xact_lock(7262002)');
  },

  async countAll(db: Queryable): Promise<number> {
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    return row?.n ?? 0;
  },

  async insertOrganization(db: Queryable, name: string, isDefault: boolean): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      'INSERT INTO organizations (name, is_default) VALUES ($1, $2) RETURNING id',
      [name, isDefault],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return row.id;
  },
};
