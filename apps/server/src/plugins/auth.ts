import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '@palisade/contract';
import { AppError } from '../lib/app-error.js';
import { usersRepository, type PrincipalRow } from '../modules/users/users.repository.js';

/** Who is calling: resolved once per request from the bearer token. */
export interface Principal {
  userId: number;
  orgId: number;
  role: Role;
  email: string;
  /** The request acting, so an audit record can name it (absent outside a request). */
  requestId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    /** onRequest hook for routes that need a signed-in user. */
    requireUser: (request: FastifyRequest) => Promise<void>;
  }
}

const AGENT_ROUTES = '/api/v1/agent/';

export const authPlugin = fp(async (app: FastifyInstance) => {
  const { db, tokens, config } = app.ctx;

  async function fromToken(request: FastifyRequest): Promise<Principal | null> {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match?.[1]) return null;
    const claims = await tokens.verify(match[1]);
    if (!claims) return null;
    // A token outlives nothing: a deactivated, deleted or re-passworded user loses it at once.
    const row = await usersRepository.findActivePrincipal(db, claims.subject);
    if (!row || row.token_version !== claims.tokenVersion) return null;
    return toPrincipal(row);
  }

  /** AUTH_DISABLED: every request is the default organization's first active administrator. */
  async function defaultAdministrator(): Promise<Principal | null> {
    const row = await usersRepository.findDefaultAdministrator(db);
    return row ? toPrincipal(row) : null;
  }

  app.decorateRequest('principal', null);
  const principalFor = async (request: FastifyRequest) =>
    (await fromToken(request)) ?? (config.authDisabled ? await defaultAdministrator() : null);
  // Callback style: agent routes, a fleet's every request, pass without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    // Agent routes take agent tokens only (plugins/device-auth.ts): no console user to find.
    if (!request.url.startsWith('/api/') || request.url.startsWith(AGENT_ROUTES)) {
      done();
      return;
    }
    principalFor(request).then((principal) => {
      request.principal = principal && { ...principal, requestId: request.id };
      done();
    }, done);
  });

  app.decorate('requireUser', async (request: FastifyRequest) => {
    if (!request.principal) throw new AppError('unauthorized', 'Could not validate credentials');
  });
});

function toPrincipal(row: PrincipalRow): Principal {
  return { userId: row.id, orgId: row.org_id, role: row.role, email: row.email };
}

/** The signed-in caller; routes behind requireUser always have one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('unauthorized', 'Could not validate credentials');
  return request.principal;
}

/** Roles that may change the fleet's configuration (everything but user management). */
export const EDITOR_ROLES = ['Administrator', 'Operator'] as const;

export function assertRole(principal: Principal, ...allowed: Role[]): void {
  if (!allowed.includes(principal.role)) throw new AppError('forbidden', 'Not enough privileges');
}
