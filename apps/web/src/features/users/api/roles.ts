import { queryOptions } from '@tanstack/react-query';
import { Role } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** Reads components.schemas.Role.enum from the API description (spec §6). */
export function rolesFromOpenApi(doc: unknown): string[] {
  const get = (value: unknown, key: string): unknown =>
    typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)[key]
      : undefined;
  const values = get(get(get(get(doc, 'components'), 'schemas'), 'Role'), 'enum');
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : [];
}

/** GET /openapi.json → the role enumeration; the contract's list if the document has none. */
export const rolesQueryOptions = queryOptions({
  queryKey: ['openapi', 'roles'],
  queryFn: async ({ signal }) => {
    const doc = await call(() => http.get('openapi.json', { signal }).json<unknown>());
    const roles = rolesFromOpenApi(doc);
    return roles.length > 0 ? roles : [...Role.options];
  },
  staleTime: Infinity,
});
