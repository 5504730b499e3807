import { atom } from 'nanostores';
import type { DigestDraft } from '../../contract/digest.ts';
import { api, failureText } from '../lib/api.ts';

/** The Digest tab (admins): the digest being prepared, as loaded or as the last change returned it. */
export type DigestDeskState =
  { status: 'loading' } | { status: 'ready'; draft: DigestDraft } | { status: 'error'; message: string };

export const $digestDesk = atom<DigestDeskState>({ status: 'loading' });

// Only the newest answer may land: a slow load must not undo a change that answered after it.
let generation = 0;

function settle(draft: DigestDraft): DigestDraft {
  generation++;
  $digestDesk.set({ status: 'ready', draft });
  return draft;
}

/** Loads the digest being prepared (`quiet`: what is shown stays until the answer arrives). */
export async function loadDigestDesk({ quiet = false }: { quiet?: boolean } = {}): Promise<void> {
  const mine = ++generation;
  if (!quiet) $digestDesk.set({ status: 'loading' });
  try {
    const draft = await api<DigestDraft>('/api/admin/digest');
    if (mine === generation) $digestDesk.set({ status: 'ready', draft });
  } catch (error) {
    if (mine === generation) $digestDesk.set({ status: 'error', message: failureText(error) });
  }
}

/**
 * Leaves a thread out of the digest (`excluded`) or puts it back; the answer is the digest as it is
 * now. Throws when the server refused (a 409 once it was published meanwhile, with its detail).
 */
export async function trimDigest(threadId: string, excluded: boolean): Promise<DigestDraft> {
  return settle(
    await api<DigestDraft>('/api/admin/digest/trim', {
      method: 'POST',
      body: { thread_id: threadId, excluded },
    }),
  );
}

/** Saves the editor's note ('' for none); throws when the server refused, like trimDigest. */
export async function saveDigestNote(note: string): Promise<DigestDraft> {
  return settle(await api<DigestDraft>('/api/admin/digest/note', { method: 'PUT', body: { note } }));
}
