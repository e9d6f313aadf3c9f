import { describe, expect, it } from 'vitest';
import { MAX_BACKOFF_MS, backoffMs, parseSse } from './sse';

describe('parseSse', () => {
  it('reads named events, skips comments, keeps an unfinished block', () => {
    const chunk = parseSse(
      'retry: 3000\n\n: keepalive\n\nevent: alerts\ndata: {}\n\nevent: devices\ndata: {"a"',
    );
    expect(chunk.events).toEqual([{ event: 'alerts', data: '{}' }]);
    expect(chunk.rest).toBe('event: devices\ndata: {"a"');
    expect(chunk.retry).toBe(3000);
  });

  it('joins data lines, defaults the name, accepts CRLF', () => {
    const chunk = parseSse('data: one\r\ndata:two\r\n\r\n');
    expect(chunk.events).toEqual([{ event: 'message', data: 'one\ntwo' }]);
    expect(chunk.rest).toBe('');
  });

  it('completes an event split across chunks', () => {
    const first = parseSse('event: alerts\nda');
    expect(first.events).toEqual([]);
    const second = parseSse(`${first.rest}ta: {}\n\n`);
    expect(second.events).toEqual([{ event: 'alerts', data: '{}' }]);
  });
});

describe('backoffMs', () => {
  it('doubles from the base and stops at the cap', () => {
    const mid = () => 0.5;
    expect(backoffMs(0, 1000, mid)).toBe(1000);
    expect(backoffMs(3, 1000, mid)).toBe(8000);
    expect(backoffMs(20, 1000, mid)).toBe(MAX_BACKOFF_MS);
  });
});
