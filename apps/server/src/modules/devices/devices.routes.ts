import {
  Device,
  DeviceAlerts,
  DeviceFirewallPreview,
  DeviceNetwork,
  DeviceNetworkWrite,
  DeviceLog,
  DeviceMonitor,
  DeviceMonitorQuery,
  DeviceSummary,
  DeviceSummaryQuery,
  DeviceUpdate,
  DeviceUpgradeRequest,
  DeviceUpgradeResult,
  DeviceWrite,
  IdParams,
  ListQuery,
  listResponse,
  MessageResponse,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.js';
import { principalOf } from '../../plugins/auth.js';
import { createDevicesService } from './devices.service.js';

const errors = errorResponses(401, 403, 404, 409, 422);
const HOUR_MS = 3_600_000;

export const devicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const devices = createDevicesService(
    app.ctx.db,
    app.ctx.agentVersion,
    app.ctx.config.publicUrl,
    app.ctx.config.healthDropPercent,
  );
  const signedIn = { onRequest: app.requireUser };
  const tags = ['devices'];

  app.get(
    '/devices/',
    {
      ...signedIn,
      schema: { tags, querystring: ListQuery, response: { 200: listResponse(Device), ...errors } },
    },
    (request) => devices.list(principalOf(request), request.query),
  );
  app.get(
    '/devices/summary',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: DeviceSummaryQuery,
        response: { 200: DeviceSummary, ...errors },
      },
    },
    (request) => devices.summary(principalOf(request), request.query),
  );
  app.get(
    '/devices/:id',
    { ...signedIn, schema: { tags, params: IdParams, response: { 200: Device, ...errors } } },
    (request) => devices.get(principalOf(request), request.params.id),
  );
  app.post(
    '/devices/',
    { ...signedIn, schema: { tags, body: DeviceWrite, response: { 201: Device, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await devices.create(principalOf(request), request.body)),
  );
  app.post(
    '/devices/upgrade',
    {
      ...signedIn,
      schema: {
        tags,
        body: DeviceUpgradeRequest,
        response: { 200: DeviceUpgradeResult, ...errors },
      },
    },
    (request) => devices.requestUpgrade(principalOf(request), request.body),
  );
  app.put(
    '/devices/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, body: DeviceUpdate, response: { 200: Device, ...errors } },
    },
    (request) => devices.update(principalOf(request), request.params.id, request.body),
  );
  app.delete(
    '/devices/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await devices.remove(principalOf(request), request.params.id);
      return { msg: 'Device deleted' };
    },
  );
  app.get(
    '/deviceupdate/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await devices.flush(principalOf(request), request.params.id);
      return { msg: 'Device update requested' };
    },
  );
  app.get(
    '/devices/:id/network',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: DeviceNetwork, ...errors } },
    },
    (request) => devices.network(principalOf(request), request.params.id),
  );
  app.put(
    '/devices/:id/network',
    {
      ...signedIn,
      schema: {
        tags,
        params: IdParams,
        body: DeviceNetworkWrite,
        response: { 200: DeviceNetwork, ...errors },
      },
    },
    (request) => devices.setNetwork(principalOf(request), request.params.id, request.body),
  );
  app.get(
    '/devices/:id/firewall',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: DeviceFirewallPreview, ...errors } },
    },
    (request) => devices.firewallPreview(principalOf(request), request.params.id),
  );
  app.get(
    '/devicemonitor/:id',
    {
      ...signedIn,
      schema: {
        tags,
        params: IdParams,
        querystring: DeviceMonitorQuery,
        response: { 200: DeviceMonitor, ...errors },
      },
    },
    (request) => {
      const since = request.query.since
        ? new Date(request.query.since)
        : new Date(Date.now() - HOUR_MS);
      return devices.monitor(principalOf(request), request.params.id, since, request.query.limit);
    },
  );
  app.get(
    '/devicelog/:id',
    { ...signedIn, schema: { tags, params: IdParams, response: { 200: DeviceLog, ...errors } } },
    (request) => devices.log(principalOf(request), request.params.id),
  );
  app.get(
    '/devicelogsnort/:id',
    { ...signedIn, schema: { tags, params: IdParams, response: { 200: DeviceAlerts, ...errors } } },
    (request) => devices.alerts(principalOf(request), request.params.id),
  );
};
