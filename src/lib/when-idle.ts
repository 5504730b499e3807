/** Runs `run` once the browser is idle (a short delay where it has no idle callback, as in Safari). */
export function whenIdle(run: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(() => run());
  else setTimeout(run, 200);
}
