// Work the running server repeats (sending due notifications, sweeping upload leftovers): one run
// at a time, the next `intervalMs` after the previous one ended, until stopped (main.ts stops
// them on shutdown). The timers are unref'd: they never keep a stopping process alive.

/** Runs `run` after `firstDelayMs` (default at once), then every `intervalMs`; returns stop(). */
export function startPeriodic(
  run: () => Promise<unknown>,
  intervalMs: number,
  onError: (err: unknown) => void,
  firstDelayMs = 0,
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (delay: number) => {
    timer = setTimeout(() => void tick(), delay);
    timer.unref();
  };
  const tick = async () => {
    if (stopped) return;
    try {
      await run();
    } catch (err) {
      onError(err);
    }
    if (!stopped) schedule(intervalMs);
  };
  schedule(firstDelayMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
