import { HealthSchema } from '../../contract/health.ts';
import { apiUrl } from './api-base.ts';

/** Backend wake-up (spec section 9): each try 5 s, a 2 s pause between tries, 60 s in all. */
export const WAKE_UP = { tryTimeoutMs: 5000, pauseMs: 2000, totalMs: 60_000 } as const;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Whether a health answer says our server is awake: 2xx, or its own 503 saying the database answers
 * while a write check lags. Trap: under load a write check may outlast its 2 s, and sign-in
 * waited a pause and another try for a backend that was up all along. A proxy's 503 for a host
 * still starting has no such body, so the wake-up goes on waiting for it.
 */
async function awake(response: Response): Promise<boolean> {
  if (response.ok) return true;
  if (response.status !== 503) return false;
  const health = HealthSchema.safeParse(await response.json().catch(() => null));
  return health.success && health.data.db === 'ok';
}

/** One `GET /api/health`, given up after the try timeout; true when the server is awake. */
async function healthAnswers(): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), WAKE_UP.tryTimeoutMs);
  try {
    const response = await fetch(apiUrl('/api/health'), { signal: controller.signal, cache: 'no-store' });
    return await awake(response);
  } catch {
    return false; // not up yet, or the try timed out
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls `GET /api/health` until it answers 2xx; false when the backend does not answer within the
 * total time (a sleeping host may need a while to start).
 */
export async function wakeUpBackend(now: () => number = Date.now): Promise<boolean> {
  const deadline = now() + WAKE_UP.totalMs;
  while (now() < deadline) {
    if (await healthAnswers()) return true;
    if (now() + WAKE_UP.pauseMs >= deadline) break;
    await pause(WAKE_UP.pauseMs);
  }
  return false;
}
