import multipart from '@fastify/multipart';
import {
  ChangePreview,
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
import type { FastifyRequest } from 'fastify';
import { errorResponses } from '../../plugins/errors.js';
import { z } from 'zod';
import { principalOf } from '../../plugins/auth.js';
import { readUploadedFiles, UploadBudget } from '../../lib/uploads.js';
import { UploadStage, unpackUpload, type UnpackedUpload } from './rule-archive.js';
import { previewChange } from '../preview/preview.service.js';
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
   * Reads a rule import's multipart body: one or more files (.rules, .tar.gz/.tgz/.tar, .zip,
   * classification.config) stream to DATA_DIR/uploads, each unpacked byte drawn from
   * IMPORT_MAX_BYTES for the whole request, and `use` gets them; the staging folder goes after.
   */
  const withUploads = async <T>(
    request: FastifyRequest,
    use: (uploads: UnpackedUpload[]) => Promise<T>,
  ): Promise<T> => {
    const budget = new UploadBudget(importMaxBytes);
    const stage = await UploadStage.open(app.ctx.config.dataDir);
    try {
      const uploads = await readUploadedFiles(request, 'the rule files', (part) =>
        unpackUpload(part.filename, part.file, { budget, stage }),
      );
      return await use(uploads);
    } finally {
      await stage.remove();
    }
  };
  // The role is checked before the body is read.
  const mayImport = [
    app.requireUser,
    async (request: FastifyRequest) => rules.mayImport(principalOf(request)),
  ];

  app.post(
    '/rules/import',
    {
      onRequest: mayImport,
      schema: {
        tags,
        querystring: ImportQuery,
        consumes: ['multipart/form-data'],
        response: { 200: ImportReport, ...errors },
      },
    },
    (request) =>
      withUploads(request, (uploads) =>
        rules.import(principalOf(request), uploads, request.query.strict === 'true'),
      ),
  );

  /**
   * The import's preview (see modules/preview): the same body, imported in a transaction that
   * is rolled back, answering what the devices whose policies hold the rules would receive. It
   * stands here rather than in preview.routes.ts because it reads the same multipart body.
   */
  app.post(
    '/rules/import/preview',
    {
      onRequest: mayImport,
      schema: {
        tags: ['preview'],
        querystring: ImportQuery,
        consumes: ['multipart/form-data'],
        response: { 200: ChangePreview, ...errors },
      },
    },
    (request) =>
      withUploads(request, (uploads) =>
        previewChange(app.ctx.db, principalOf(request), (dry) =>
          createRulesService(dry).import(
            principalOf(request),
            uploads,
            request.query.strict === 'true',
          ),
        ),
      ),
  );
};
