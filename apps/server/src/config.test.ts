import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      dataDir: './data',
      databaseUrl: undefined,
      authDisabled: false,
      publicUrl: 'http://localhost:8080',
      logLevel: 'info',
    });
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
});
