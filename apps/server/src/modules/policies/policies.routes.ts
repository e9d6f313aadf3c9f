import multipart from '@fastify/multipart';
import {
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
import { errorResponses } from '../../plugins/errors.js';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { principalOf } from '../../plugins/auth.js';
import { createPoliciesService, type UploadedPolicyFile } from './policies.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 413, 422);
const MAX_POLICY_FILE_BYTES = 8 * 1024 * 1024;
const safeFileName = (name: string) => name.replace(/[^\w.-]+/g, '_').slice(0, 100) || 'policy';

export const policiesRoutes: FastifyPluginAsyncZod = async (app) => {
  const policies = createPoliciesService(app.ctx.db);
  const signedIn = { onRequest: app.requireUser };
  const tags = ['policies'];
  await app.register(multipart, {
    limits: { fileSize: MAX_POLICY_FILE_BYTES, files: 10, fields: 10 },
  });

  app.get(
    '/policies/',
    {
      ...signedIn,
      schema: { tags, querystring: ListQuery, response: { 200: listResponse(Policy), ...errors } },
    },
    (request) => policies.list(principalOf(request), request.query),
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
  /** 'Upload custom policies': enable/disable/drop/modify.conf or a policy export (.json). */
  app.post(
    '/policies/:id/upload',
    {
      ...signedIn,
      schema: {
        tags,
        params: IdParams,
        consumes: ['multipart/form-data'],
        response: { 200: PolicyUploadReport, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (!request.isMultipart())
        throw new AppError('bad_request', 'Send the policy files as multipart/form-data');
      const files: UploadedPolicyFile[] = [];
      for await (const part of request.files()) {
        let bytes: Buffer;
        try {
          bytes = await part.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new AppError(
              'payload_too_large',
              `${part.filename}: larger than ${MAX_POLICY_FILE_BYTES / 1024 / 1024} MiB`,
            );
          }
          throw error;
        }
        files.push({ name: part.filename, text: bytes.toString('utf8') });
      }
      if (files.length === 0)
        throw new AppError('validation_failed', 'No file in the upload', [
          { field: 'file', msg: 'Required' },
        ]);
      return policies.upload(principal, request.params.id, files);
    },
  );
};
