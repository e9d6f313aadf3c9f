import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { configure, render, type RenderResult } from '@testing-library/react';
import { TestProviders } from './providers';

// findBy… and waitFor wait this long: the default second is too short on a loaded machine.
configure({ asyncUtilTimeout: 10_000 });

/** One answer of the fake server: status and JSON body. */
export interface FakeAnswer {
  status?: number;
  body: unknown;
}

export interface FakeCall {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
}

/**
 * A stand-in for the API server in component tests: `routes` maps `METHOD path` (path after
 * /api/v1/, no query) to an answer or a function of the call. Every call is recorded.
 */
export function fakeApi(routes: Record<string, FakeAnswer | ((call: FakeCall) => FakeAnswer)>): {
  calls: FakeCall[];
  fetch: typeof fetch;
} {
  const calls: FakeCall[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const call: FakeCall = {
      method: request.method,
      path: url.pathname.replace(/^\/api\/v1\//, ''),
      search: url.searchParams,
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    if (route === undefined) {
      return Response.json({ msg: `no fake for ${call.method} ${call.path}` }, { status: 404 });
    }
    const answer = typeof route === 'function' ? route(call) : route;
    return Response.json(answer.body, { status: answer.status ?? 200 });
  };
  return { calls, fetch: fake };
}

/**
 * Puts the fake API in place of the network (undo with `vi.unstubAllGlobals()`). Requests are
 * resolved against jsdom's location, as the browser resolves the client's relative URLs.
 */
export function installFakeApi(routes: Parameters<typeof fakeApi>[0]): ReturnType<typeof fakeApi> {
  const api = fakeApi(routes);
  vi.stubGlobal('fetch', api.fetch);
  vi.stubGlobal(
    'Request',
    class extends Request {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
      }
    },
  );
  return api;
}

// jsdom lays nothing out: without a size the virtualised tables would show no rows.
Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, value: 800 });
Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, value: 1200 });

/** Renders a screen part as the console does: query client, English texts, a router at `path`. */
export function renderScreen(ui: ReactNode, path = '/'): RenderResult {
  return render(
    <TestProviders staleTime={30_000}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </TestProviders>,
  );
}
