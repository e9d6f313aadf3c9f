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
import { MAX_UPLOAD_BYTES, unpackUpload, type UnpackedUpload } from './rule-archive.js';
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

  await app.register(multipart, {
    limits: {
      fileSize: MAX_UPLOAD_BYTES,
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

  /** multipart/form-data with one or more files: .rules, .tar.gz/.tgz/.tar, .zip, classification.config. */
  app.post(
    '/rules/import',
    {
      ...signedIn,
      bodyLimit: MAX_UPLOAD_BYTES * 2,
      schema: {
        tags,
        querystring: ImportQuery,
        consumes: ['multipart/form-data'],
        response: { 200: ImportReport, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (!request.isMultipart()) {
        throw new AppError('bad_request', 'Send the rule files as multipart/form-data');
      }
      const uploads: UnpackedUpload[] = [];
      let received = 0;
      for await (const part of request.files()) {
        let bytes: Buffer;
        try {
          bytes = await part.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new AppError(
              'payload_too_large',
              `${part.filename}: larger than the ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB upload limit`,
            );
          }
          throw error;
        }
        // Each file has its own limit; the whole upload has one too, so 50 files cannot add up.
        received += bytes.length;
        if (received > MAX_UPLOAD_BYTES) {
          throw new AppError(
            'payload_too_large',
            `The upload is larger than the ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB limit`,
          );
        }
        uploads.push(await unpackUpload(part.filename, bytes));
      }
      if (uploads.length === 0)
        throw new AppError('validation_failed', 'No file in the upload', [
          { field: 'file', msg: 'Required' },
        ]);
      return rules.import(principal, uploads, request.query.strict === 'true');
    },
  );
};
