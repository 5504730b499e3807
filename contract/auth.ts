import { z } from './zod.ts';

/** `GET /api/auth/config`: the public OAuth settings (DESIGN section 5). Never a secret. */
export const AuthConfigSchema = z.object({
  client_id: z.string(),
  redirect_uri: z.url(),
  auth_base_url: z.url(),
  mode: z.enum(['live', 'simulated']),
  /** What a member's sign-in asks for (threads_basic only, decision 024). */
  scopes: z.array(z.string()),
  /** What connecting the curation account from the dashboard asks for. */
  curator_scopes: z.array(z.string()),
});
export type AuthConfig = z.infer<typeof AuthConfigSchema>;

/** `POST /api/auth/callback` body: the code from the provider and the redirect URI it was issued for. */
export const CallbackRequestSchema = z.strictObject({
  code: z
    .string()
    .check(
      z.minLength(1, 'The authorization code is missing.'),
      z.maxLength(2048, 'The authorization code is too long.'),
    ),
  redirect_uri: z.string().check(z.maxLength(2048)),
});
export type CallbackRequest = z.infer<typeof CallbackRequestSchema>;

/** The signed-in user as the browser may know it: the Threads user id and username, never a token. */
export const AuthUserSchema = z.object({ user_id: z.string(), username: z.string() });

export const CallbackResponseSchema = z.extend(AuthUserSchema, { success: z.literal(true) });
export type CallbackResponse = z.infer<typeof CallbackResponseSchema>;

/** `GET /api/auth/verify` (DESIGN section 7: the Threads token stays on the server). */
export const VerifyResponseSchema = z.extend(AuthUserSchema, { authenticated: z.literal(true) });
export type VerifyResponse = z.infer<typeof VerifyResponseSchema>;

/** `POST /api/auth/refresh`. */
export const RefreshResponseSchema = AuthUserSchema;
export type RefreshResponse = z.infer<typeof RefreshResponseSchema>;

/** `GET /api/admin/curator`: the curation account and which of its permissions are granted. */
export const CuratorStatusSchema = z.object({
  /** True when an account that may curate (the curator, or an admin) has a stored token. */
  connected: z.boolean(),
  /** Its Threads username; null when none is connected. */
  username: z.nullable(z.string()),
  /** CURATOR_THREADS_USERNAME when set: the only account that can curate. */
  expected_username: z.nullable(z.string()),
  granted: z.array(z.string()),
  missing: z.array(z.string()),
  /** Threads refused its token: it must be connected again. */
  reconnect_needed: z.boolean(),
});
export type CuratorStatus = z.infer<typeof CuratorStatusSchema>;

/** How long a session lasts without a new sign-in. */
export const SESSION_DAYS = 30;

/** A write that answers nothing more than that it happened (`POST /api/auth/logout`). */
export const SuccessSchema = z.object({ success: z.literal(true) });
