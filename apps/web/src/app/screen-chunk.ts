import { lazy, type ComponentType } from 'react';

/**
 * A promise-shaped value whose `then` calls back at once, in the same turn: React.lazy then
 * takes the module synchronously. React.lazy calls only `then`, and no real Promise answers
 * synchronously, hence the cast.
 */
function answeredAtOnce<T>(value: T): Promise<T> {
  const thenable = { then: (onAnswered: (value: T) => unknown) => void onAnswered(value) };
  return thenable as unknown as Promise<T>;
}

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
  const Screen = lazy(() =>
    loaded === undefined
      ? preload().then((component) => ({ default: component }))
      : answeredAtOnce({ default: loaded }),
  );
  return { Screen, preload };
}
