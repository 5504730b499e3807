import { atom, map } from 'nanostores';
import { GEM_TEXTS, type GemIds, type GemState } from '../../contract/gems.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import { $auth, checkAuth } from './auth.ts';

/**
 * The signed-in member's saved thread ids, or null while unknown and for anyone who cannot save gems
 * (visitors, users without an approved profile, or an ids call that failed): the button stays hidden.
 */
export const $gemIds = atom<ReadonlySet<string> | null>(null);
/** Per thread: the last toggle's failure message, or a toggle in flight (`busy`). */
export const $gemToggles = map<Record<string, { busy: boolean; error: string | null }>>({});

let loading: Promise<void> | null = null;

/** Loads the saved ids once per page, after the session check, and only for a signed-in user. */
export function loadGems(): Promise<void> {
  loading ??= (async () => {
    await checkAuth();
    if ($auth.get().status !== 'authenticated') return;
    try {
      const { can_save: canSave, ids } = await api<GemIds>('/api/user/gems/ids');
      $gemIds.set(canSave ? new Set(ids) : null);
    } catch {
      // 401/403 (not a member) or no answer: without the saved state the button cannot be honest.
      $gemIds.set(null);
    }
  })();
  return loading;
}

function withId(ids: ReadonlySet<string>, id: string, saved: boolean): ReadonlySet<string> {
  const next = new Set(ids);
  if (saved) next.add(id);
  else next.delete(id);
  return next;
}

/** What a failed toggle says: the server's reason when it is about the thread, else a plain retry hint. */
function failureMessage(error: unknown, save: boolean): string {
  const explained = error instanceof ApiRequestError && [404, 409, 429].includes(error.status);
  return (explained ? error.detail : null) ?? (save ? GEM_TEXTS.saveFailed : GEM_TEXTS.removeFailed);
}

/**
 * Saves or removes a gem at once on screen (optimistic), then asks the server; on failure the card
 * goes back to what it was and says why. A second press while one is in flight is ignored.
 */
export async function toggleGem(threadId: string): Promise<void> {
  const ids = $gemIds.get();
  if (!ids || $gemToggles.get()[threadId]?.busy) return;
  const save = !ids.has(threadId);
  $gemIds.set(withId(ids, threadId, save));
  $gemToggles.setKey(threadId, { busy: true, error: null });
  try {
    const state = await api<GemState>(`/api/user/gems/${encodeURIComponent(threadId)}`, {
      method: save ? 'PUT' : 'DELETE',
    });
    $gemToggles.setKey(threadId, { busy: false, error: null });
    const current = $gemIds.get();
    if (current) $gemIds.set(withId(current, threadId, state.saved));
  } catch (error) {
    const current = $gemIds.get();
    if (current) $gemIds.set(withId(current, threadId, !save));
    $gemToggles.setKey(threadId, { busy: false, error: failureMessage(error, save) });
  }
}
