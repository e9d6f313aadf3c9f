import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      dataDir: path.resolve('data'),
      databaseUrl: undefined,
      authDisabled: false,
      publicUrl: 'http://localhost:8080',
      logLevel: 'info',
    });
  });

  it("serves this checkout's agent build unless AGENT_RELEASE_DIR names another", () => {
    const checkout = path.resolve(import.meta.dirname, '../../..');
    expect(loadConfig({}).agentReleaseDir).toBe(path.join(checkout, 'apps/agent/dist-release'));
    expect(loadConfig({ AGENT_RELEASE_DIR: 'agent' }, '/srv/palisade').agentReleaseDir).toBe(
      '/srv/palisade/agent',
    );
    expect(() => loadConfig({ AGENT_RELEASE_DIR: 'a\u0000b' })).toThrow(/AGENT_RELEASE_DIR/);
  });

  it('resolves DATA_DIR against the working folder once, at start', () => {
    expect(loadConfig({}, '/srv/palisade').dataDir).toBe('/srv/palisade/data');
    expect(loadConfig({ DATA_DIR: '../state' }, '/srv/palisade').dataDir).toBe('/srv/state');
    expect(loadConfig({ DATA_DIR: '/var/lib/palisade' }, '/srv').dataDir).toBe('/var/lib/palisade');
  });

  it('reads TRUST_PROXY as off, a hop count, or proxy addresses, never "trust everything"', () => {
    const trust = (TRUST_PROXY: string) => loadConfig({ TRUST_PROXY }).trustProxy;
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 192.0.2.1,fd00::/8, loopback')).toEqual([
      '10.0.0.0/8',
      '192.0.2.1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['10.0.0.0/33', 'proxy.example', '-1', '10.0.0.1/8/8']) {
      expect(() => trust(bad), bad).toThrow(/TRUST_PROXY=.*must be false, true/);
    }
  });

  it('reports every bad variable at once, naming it and its value', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://db',
        AUTH_DISABLED: 'perhaps',
        ADMIN_PASSWORD: 'short',
        SECRET_KEY: 'tiny',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('PORT="eighty": must be a port number (0-65535)');
    expect(message).toContain(
      'DATABASE_URL="mysql://db": must start with postgres:// or postgresql://',
    );
    expect(message).toContain('AUTH_DISABLED="perhaps": must be true or false');
    expect(message).toContain('ADMIN_PASSWORD=(hidden): Must have one uppercase character');
    expect(message).toContain('SECRET_KEY=(hidden): must be at least 32 characters');
    expect(message).not.toContain('short"');
  });

  it('accepts a PostgreSQL URL and trims a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/palisade',
      PUBLIC_URL: 'https://ids.example/',
    });
    expect(config.databaseUrl).toBe('postgres://u@db:5432/palisade');
    expect(config.publicUrl).toBe('https://ids.example');
  });

  it('caps a rules import at IMPORT_MAX_BYTES, 256 MiB unless set', () => {
    expect(loadConfig({}).importMaxBytes).toBe(256 * 1024 * 1024);
    expect(loadConfig({ IMPORT_MAX_BYTES: '1048576' }).importMaxBytes).toBe(1048576);
    expect(() => loadConfig({ IMPORT_MAX_BYTES: '1.5' })).toThrow(
      'IMPORT_MAX_BYTES="1.5": must be a whole number of bytes',
    );
  });
});

describe('configuration errors', () => {
  it('mask the password of a bad URL', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://mailer:hunter2@relay' })).toThrow(
      'SMTP_URL="http://mailer:***@relay": must start with smtp:// or smtps://',
    );
  });

  it('looks for due scheduled jobs every JOB_CHECK_SECONDS, a minute unless set', () => {
    expect(loadConfig({}).jobCheckSeconds).toBe(60);
    expect(loadConfig({ JOB_CHECK_SECONDS: '1' }).jobCheckSeconds).toBe(1);
    expect(() => loadConfig({ JOB_CHECK_SECONDS: '0' })).toThrow(
      'JOB_CHECK_SECONDS="0": must be at least 1',
    );
  });
});
