import { z } from './zod.ts';

/** Every non-2xx JSON body from the API: one human sentence, never a stack. */
export const ApiErrorSchema = z.object({ detail: z.string().check(z.minLength(1)) });
export type ApiError = z.infer<typeof ApiErrorSchema>;
