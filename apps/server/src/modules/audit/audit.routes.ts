import { Readable } from 'node:stream';
import { AuditExportQuery, AuditPage, AuditQuery } from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses } from '../../plugins/errors.js';
import { createAuditService } from './audit.service.js';

const errors = errorResponses(400, 401, 403, 422);
const CONTENT_TYPE = { csv: 'text/csv; charset=utf-8', json: 'application/json' } as const;

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const audit = createAuditService(app.ctx.db);
  const signedIn = { onRequest: app.requireUser };
  const tags = ['audit'];

  app.get(
    '/audit/',
    {
      ...signedIn,
      schema: { tags, querystring: AuditQuery, response: { 200: AuditPage, ...errors } },
    },
    (request) => audit.list(principalOf(request), request.query),
  );

  /** The filtered log as a download, streamed as it is read. */
  app.get(
    '/audit/export',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: AuditExportQuery,
        response: { 200: z.unknown().describe('CSV or a JSON array of AuditRecord'), ...errors },
      },
    },
    async (request, reply) =>
      reply
        .type(CONTENT_TYPE[request.query.format])
        .header('content-disposition', `attachment; filename="audit.${request.query.format}"`)
        .send(Readable.from(audit.export(principalOf(request), request.query))),
  );
};
