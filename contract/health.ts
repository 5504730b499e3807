import { z } from 'zod';

/** `GET /api/health`: wake-up polling and the debug page read it. */
export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'unavailable']),
  version: z.string(),
  uptime: z.number().nonnegative(),
});
export type Health = z.infer<typeof HealthSchema>;
