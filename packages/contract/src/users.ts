import { z } from 'zod';
import { SafeString } from './common.js';
import { Email, NewPassword } from './auth.js';

/** Roles, declared once; /openapi.json publishes it as components.schemas.Role. */
export const Role = z.enum(['Administrator', 'Operator', 'Viewer']);
export type Role = z.infer<typeof Role>;
z.globalRegistry.add(Role, { id: 'Role', description: 'What a user may do' });

const Name = SafeString.trim().max(100);

export const User = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: Role,
  is_active: z.boolean(),
  organization_id: z.number().int(),
  organization: z.string(),
  created_at: z.string(),
});
export type User = z.infer<typeof User>;
z.globalRegistry.add(User, { id: 'User' });

/** POST /users/ (Administrator): a user in the caller's organization. */
export const UserCreate = z.object({
  email: Email,
  password: NewPassword,
  first_name: Name.default(''),
  last_name: Name.default(''),
  role: Role.default('Viewer'),
  is_active: z.boolean().default(true),
});
export type UserCreateInput = z.input<typeof UserCreate>;

/** PUT /users/{id} (Administrator): every field optional; a password here resets it. */
export const UserUpdate = z.object({
  email: Email.optional(),
  password: NewPassword.optional(),
  first_name: Name.optional(),
  last_name: Name.optional(),
  role: Role.optional(),
  is_active: z.boolean().optional(),
});
export type UserUpdateInput = z.input<typeof UserUpdate>;

/**
 * PUT /users/me: own names and e-mail; a new password needs the current one,
 * so a stolen session alone cannot take the account over.
 */
export const UserUpdateMe = z
  .object({
    email: Email.optional(),
    first_name: Name.optional(),
    last_name: Name.optional(),
    password: NewPassword.optional(),
    current_password: SafeString.max(128).optional(),
  })
  .refine((body) => body.password === undefined || (body.current_password ?? '') !== '', {
    message: 'Required',
    path: ['current_password'],
  });
export type UserUpdateMeInput = z.input<typeof UserUpdateMe>;

/** POST /users/open: self-registration creates an organization with its first Administrator. */
export const UserRegister = z.object({
  email: Email,
  password: NewPassword,
  first_name: Name.default(''),
  last_name: Name.default(''),
  organization: SafeString.trim().min(1, 'Required').max(100),
});
export type UserRegisterInput = z.input<typeof UserRegister>;
