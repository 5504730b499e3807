import { z } from './zod.ts';

/** `GET /api/health`: wake-up polling, load balancers and the debug page read it. */
export const HealthSchema = z.object({
  /** 'degraded' (answered 503) when the database does not answer or a write fails. */
  status: z.enum(['ok', 'degraded']),
  /** The read path: a trivial query answers. */
  db: z.enum(['ok', 'unavailable']),
  /** The write path: a committed database write and a file written to disk in DATA_DIR. */
  write: z.enum(['ok', 'failing']),
  version: z.string(),
  uptime: z.number().check(z.nonnegative()),
  /** Why it is degraded, in words (absent when ok), e.g. "The data folder cannot be written: no space left on device (ENOSPC)." */
  detail: z.optional(z.string()),
});
export type Health = z.infer<typeof HealthSchema>;
