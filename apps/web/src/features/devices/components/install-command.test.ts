import { describe, expect, it } from 'vitest';
import { installCommand, installScriptUrl } from './install-command';

describe('installCommand', () => {
  it('pipes the server’s install script to sh with the server and the token', () => {
    expect(installCommand('https://console.example', 'pse_4_abc-_9')).toBe(
      'curl -fsSL https://console.example/api/v1/agent/install.sh | sudo sh -s -- --server https://console.example --token pse_4_abc-_9',
    );
  });

  it('reads the script from the same origin it enrols against', () => {
    expect(installScriptUrl('http://10.0.0.5:8080')).toBe(
      'http://10.0.0.5:8080/api/v1/agent/install.sh',
    );
  });
});
