import { lazy, type ComponentType } from 'react';

export type ScreenModule = { Component: ComponentType };

/**
 * A screen's chunk, loaded once: `preload` fetches it ahead of the router, and `Screen` renders
 * it. Each screen is its own chunk, so /login loads only what it needs.
 *
 * A chunk that has loaded renders at once. React.lazy would suspend on it all the same (its
 * promise answers a tick later), show the spinner, and then hold the screen back: React reveals
 * what a fallback stood in for no sooner than 300 ms after that fallback.
 */
export function screenChunk(load: () => Promise<ScreenModule>) {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = (): Promise<ComponentType> =>
    (loading ??= load().then(
      (module) => (loaded = module.Component),
      (error: unknown) => {
        loading = undefined; // the next preload asks again (a deploy may have replaced it)
        throw error;
      },
    ));
  const Screen = lazy(() => {
    if (loaded === undefined) return preload().then((component) => ({ default: component }));
    const component = loaded;
    // A thenable that answers as it is asked: React.lazy then takes the module synchronously.
    const ready: PromiseLike<{ default: ComponentType }> = {
      then: (onLoaded) => Promise.resolve(onLoaded?.({ default: component })) as never,
    };
    return ready as Promise<{ default: ComponentType }>;
  });
  return { Screen, preload };
}
