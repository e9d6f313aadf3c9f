import multipart from '@fastify/multipart';
import {
  IdParams,
  ImportReport,
  ListQuery,
  listResponse,
  RuleDetail,
  RuleSummary,
  RulesMultiRequest,
  RulesMultiResponse,
  RuleUpdate,
  RuleWrite,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.js';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { principalOf } from '../../plugins/auth.js';
import { multipartFiles, UploadBudget, uploadError } from '../../lib/uploads.js';
import { UploadStage, unpackUpload, type UnpackedUpload } from './rule-archive.js';
import { createRulesService } from './rules.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 413, 422);
/** The spec pages rules by 5000. */
const RulesQuery = ListQuery.extend({
  limit: z.coerce.number().int().min(0).max(1_000_000).default(5000),
});
const ImportQuery = z.object({ strict: z.enum(['true', 'false']).default('false') });
const MAX_FILES_PER_IMPORT = 50;

export const rulesRoutes: FastifyPluginAsyncZod = async (app) => {
  const rules = createRulesService(app.ctx.db);
  const signedIn = { onRequest: app.requireUser };
  const tags = ['rules'];

  const { importMaxBytes } = app.ctx.config;
  await app.register(multipart, {
    limits: {
      // No one file may be larger than the whole request may unpack to.
      fileSize: importMaxBytes,
      files: MAX_FILES_PER_IMPORT,
      fields: 10,
      parts: MAX_FILES_PER_IMPORT + 10,
    },
  });

  app.get(
    '/rules/',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: RulesQuery,
        response: { 200: listResponse(RuleSummary), ...errors },
      },
    },
    (request) => rules.list(principalOf(request), request.query),
  );

  app.get(
    '/rules/:id',
    { ...signedIn, schema: { tags, params: IdParams, response: { 200: RuleDetail, ...errors } } },
    (request) => rules.get(principalOf(request), request.params.id),
  );

  app.post(
    '/rulesmulti',
    {
      ...signedIn,
      schema: { tags, body: RulesMultiRequest, response: { 200: RulesMultiResponse, ...errors } },
    },
    (request) => rules.many(principalOf(request), request.body.ids),
  );

  app.post(
    '/rules/',
    { ...signedIn, schema: { tags, body: RuleWrite, response: { 201: RuleDetail, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await rules.create(principalOf(request), request.body)),
  );

  app.put(
    '/rules/:id',
    {
      ...signedIn,
      schema: {
        tags,
        params: IdParams,
        body: RuleUpdate,
        response: { 200: RuleDetail, ...errors },
      },
    },
    (request) => rules.update(principalOf(request), request.params.id, request.body),
  );

  /**
   * multipart/form-data with one or more files: .rules, .tar.gz/.tgz/.tar, .zip,
   * classification.config. The role is checked before the body is read; the files stream to
   * DATA_DIR/uploads, each unpacked byte drawn from IMPORT_MAX_BYTES for the whole request.
   */
  app.post(
    '/rules/import',
    {
      onRequest: [app.requireUser, async (request) => rules.mayImport(principalOf(request))],
      schema: {
        tags,
        querystring: ImportQuery,
        consumes: ['multipart/form-data'],
        response: { 200: ImportReport, ...errors },
      },
    },
    async (request) => {
      const budget = new UploadBudget(importMaxBytes);
      const stage = await UploadStage.open(app.ctx.config.dataDir);
      try {
        const uploads: UnpackedUpload[] = [];
        for await (const part of multipartFiles(request, 'the rule files')) {
          uploads.push(
            await unpackUpload(part.filename, part.file, { budget, stage }).catch((error) => {
              throw uploadError(error);
            }),
          );
        }
        if (uploads.length === 0)
          throw new AppError('validation_failed', 'No file in the upload', [
            { field: 'file', msg: 'Required' },
          ]);
        return await rules.import(principalOf(request), uploads, request.query.strict === 'true');
      } finally {
        await stage.remove();
      }
    },
  );
};
