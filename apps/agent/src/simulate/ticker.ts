// One clock for every simulated device of the process. A fleet of 5,000 devices that each slept
// a second in a loop made 5,000 timers, promises and abort listeners a second; they now share
// one interval that runs while any device listens.

type Listener = (now: number) => void;

export class SimulationTicker {
  private readonly listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly periodMs = 1000) {}

  /** Calls `listener` every period with the time; returns the way to stop. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    this.timer ??= setInterval(() => {
      const now = Date.now();
      for (const each of this.listeners) each(now);
    }, this.periodMs);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer !== undefined) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }
}

/** The process's clock for simulated devices. */
export const simulationTicker = new SimulationTicker();
