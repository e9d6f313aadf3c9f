import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { SERVER_VERSION } from '../lib/version.js';

/** /openapi.json comes from the same zod schemas that validate requests. */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Palisade API', version: SERVER_VERSION },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          OAuth2PasswordBearer: {
            type: 'oauth2',
            flows: { password: { tokenUrl: '/api/v1/login/access-token', scopes: {} } },
          },
        },
      },
      security: [{ OAuth2PasswordBearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
});
