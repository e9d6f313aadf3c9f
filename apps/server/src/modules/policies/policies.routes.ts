import multipart from '@fastify/multipart';
import {
  BacktestRequest,
  BacktestResult,
  ChangePreview,
  IdParams,
  ListQuery,
  listResponse,
  MessageResponse,
  Policy,
  PolicyExport,
  PolicyRender,
  PolicyUpdate,
  PolicyUploadReport,
  PolicyWrite,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { errorResponses } from '../../plugins/errors.js';
import { z } from 'zod';
import { decodeText, readUploadedFiles, tooLarge, UploadBudget } from '../../lib/uploads.js';
import { principalOf } from '../../plugins/auth.js';
import { previewChange } from '../preview/preview.service.js';
import { createPoliciesService, type UploadedPolicyFile } from './policies.service.js';
import { createPolicyBacktestService } from './policy-backtest.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 413, 422);
const MAX_POLICY_FILE_BYTES = 8 * 1024 * 1024;
/** All files of one policy upload together. */
const MAX_POLICY_UPLOAD_BYTES = 16 * 1024 * 1024;
const safeFileName = (name: string) => name.replace(/[^\w.-]+/g, '_').slice(0, 100) || 'policy';

export const policiesRoutes: FastifyPluginAsyncZod = async (app) => {
  const policies = createPoliciesService(app.ctx.db);
  const backtests = createPolicyBacktestService(app.ctx.db);
  const signedIn = { onRequest: app.requireUser };
  const tags = ['policies'];
  await app.register(multipart, {
    // A file over its limit ends truncated (checked below) rather than failing mid-stream.
    limits: { fileSize: MAX_POLICY_FILE_BYTES, files: 10, fields: 10 },
    throwFileSizeLimit: false,
  });

  app.get(
    '/policies/',
    {
      ...signedIn,
      schema: { tags, querystring: ListQuery, response: { 200: listResponse(Policy), ...errors } },
    },
    (request) => policies.list(principalOf(request), request.query),
  );
  // A read by POST (the entries considered are a body): what a tuning change would have removed.
  app.post(
    '/policies/:id/backtest',
    {
      ...signedIn,
      schema: {
        tags,
        params: IdParams,
        body: BacktestRequest,
        response: { 200: BacktestResult, ...errors },
      },
    },
    (request) => backtests.backtest(principalOf(request), request.params.id, request.body),
  );
  app.get(
    '/policies/:id',
    { ...signedIn, schema: { tags, params: IdParams, response: { 200: Policy, ...errors } } },
    (request) => policies.get(principalOf(request), request.params.id),
  );
  app.post(
    '/policies/',
    { ...signedIn, schema: { tags, body: PolicyWrite, response: { 201: Policy, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await policies.create(principalOf(request), request.body)),
  );
  app.put(
    '/policies/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, body: PolicyUpdate, response: { 200: Policy, ...errors } },
    },
    (request) => policies.update(principalOf(request), request.params.id, request.body),
  );
  app.delete(
    '/policies/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await policies.remove(principalOf(request), request.params.id);
      return { msg: 'Policy deleted' };
    },
  );

  /** The exact text a sensor loads, with its version. */
  app.get(
    '/policies/:id/render',
    { ...signedIn, schema: { tags, params: IdParams, response: { 200: PolicyRender, ...errors } } },
    (request) => policies.render(principalOf(request), request.params.id),
  );
  /**
   * The files a sensor loads, as downloads named after the policy and its version: the rules,
   * and its thresholds and suppressions as threshold.config.
   */
  const renderedFiles = [
    { name: 'rules', part: 'rules' },
    { name: 'threshold.config', part: 'thresholds' },
  ] as const;
  for (const file of renderedFiles) {
    app.get(
      `/policies/:id/${file.name}`,
      {
        ...signedIn,
        schema: { tags, params: IdParams, response: { 200: z.string(), ...errors } },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const [rendered, policy] = await Promise.all([
          policies.render(principal, request.params.id),
          policies.get(principal, request.params.id),
        ]);
        const name = `${safeFileName(policy.name)}-v${rendered.version}.${file.name}`;
        return reply
          .type('text/plain; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(rendered[file.part]);
      },
    );
  }
  app.get(
    '/policies/:id/export',
    { ...signedIn, schema: { tags, params: IdParams, response: { 200: PolicyExport, ...errors } } },
    async (request, reply) => {
      const exported = await policies.export(principalOf(request), request.params.id);
      return reply
        .header(
          'content-disposition',
          `attachment; filename="${safeFileName(exported.name)}.policy.json"`,
        )
        .send(exported);
    },
  );
  /**
   * Reads a policy upload's multipart body ('Upload custom policies': enable/disable/drop/
   * modify.conf or a policy export, .json) as texts; each file has a limit, the request too.
   */
  const readPolicyFiles = (request: FastifyRequest): Promise<UploadedPolicyFile[]> => {
    const budget = new UploadBudget(MAX_POLICY_UPLOAD_BYTES);
    return readUploadedFiles(request, 'the policy files', async (part) => {
      const chunks: Buffer[] = [];
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        budget.take(chunk.length, part.filename);
        chunks.push(chunk);
      }
      if (part.file.truncated) throw tooLarge(part.filename, MAX_POLICY_FILE_BYTES, 'is over');
      return { name: part.filename, text: decodeText(part.filename, Buffer.concat(chunks)) };
    });
  };
  // Who may change the policy is checked before the body is read.
  const mayUpload = [
    app.requireUser,
    async (request: FastifyRequest) => {
      // A malformed id is left to the params schema (422) that runs after this hook.
      const params = IdParams.safeParse(request.params);
      if (params.success) await policies.mayUpload(principalOf(request), params.data.id);
    },
  ];

  app.post(
    '/policies/:id/upload',
    {
      onRequest: mayUpload,
      schema: {
        tags,
        params: IdParams,
        consumes: ['multipart/form-data'],
        response: { 200: PolicyUploadReport, ...errors },
      },
    },
    async (request) =>
      policies.upload(principalOf(request), request.params.id, await readPolicyFiles(request)),
  );

  /**
   * The upload's preview (see modules/preview): the same body, applied in a transaction that is
   * rolled back, answering what the policy's devices would receive. It stands here rather than in
   * preview.routes.ts because it reads the same multipart body.
   */
  app.post(
    '/policies/:id/upload/preview',
    {
      onRequest: mayUpload,
      schema: {
        tags: ['preview'],
        params: IdParams,
        consumes: ['multipart/form-data'],
        response: { 200: ChangePreview, ...errors },
      },
    },
    async (request) => {
      const files = await readPolicyFiles(request);
      return previewChange(app.ctx.db, principalOf(request), (dry) =>
        createPoliciesService(dry).upload(principalOf(request), request.params.id, files),
      );
    },
  );
};
