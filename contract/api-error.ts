import { z } from 'zod';

/** Every non-2xx JSON body from the API: one human sentence, never a stack. */
export const ApiErrorSchema = z.object({ detail: z.string().min(1) });
export type ApiError = z.infer<typeof ApiErrorSchema>;
