import { AgentReleaseListing } from '@palisade/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../plugins/errors.js';
import { createAgentReleaseService, type AgentDownload } from './agent-release.service.js';

const errors = errorResponses(404);
const DownloadParams = z.object({ name: z.string() });
/** Files, not JSON: documented as such, written as they are. */
const fileResponse = { 200: z.string().describe('the file'), ...errors };

/** A release file (its sha256 as ETag, so a repeated fetch is a 304) or a checksum line. */
async function send(request: FastifyRequest, reply: FastifyReply, download: AgentDownload) {
  reply.header('cache-control', 'no-cache');
  if (download.kind === 'checksum') {
    return reply.type('text/plain; charset=utf-8').send(download.text);
  }
  const { file, handle } = download;
  const etag = `"${file.sha256}"`;
  reply.header('etag', etag);
  if (request.headers['if-none-match'] === etag) {
    await handle.close();
    return reply.status(304).send();
  }
  return reply
    .header('content-length', file.size)
    .header('content-disposition', `attachment; filename="${file.name}"`)
    .type(file.name.endsWith('.sh') ? 'text/x-shellscript' : 'application/octet-stream')
    .send(handle.createReadStream());
}

/**
 * The agent build, public like /health: sensors fetch it before they have any credential, and
 * it holds none. Not compressed here: the executable is 100 MB that Accept-Encoding would make
 * the server compress for every sensor, and the agent checks the size it was told.
 */
export const agentReleaseRoutes: FastifyPluginAsyncZod = async (app) => {
  const release = createAgentReleaseService(app.ctx.config.agentReleaseDir, app.log);
  const tags = ['agent'];

  app.get(
    '/agent/download/',
    { schema: { tags, response: { 200: AgentReleaseListing, ...errors } } },
    () => release.listing(),
  );

  app.get(
    '/agent/download/:name',
    { compress: false, schema: { tags, params: DownloadParams, response: fileResponse } },
    async (request, reply) => send(request, reply, await release.download(request.params.name)),
  );

  app.get(
    '/agent/install.sh',
    { compress: false, schema: { tags, response: fileResponse } },
    async (request, reply) => send(request, reply, await release.download('install.sh')),
  );
};
