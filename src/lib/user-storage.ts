/** The signed-in user as the browser keeps it (spec: user id and optional username in local storage). */
export interface StoredUser {
  id: string;
  username: string | null;
}

/** Also read by the layout's first inline script (BaseLayout.astro), before the page paints. */
export const USER_ID_KEY = 'curated-threads:user-id';
export const USERNAME_KEY = 'curated-threads:username';

export function readStoredUser(): StoredUser | null {
  try {
    const id = localStorage.getItem(USER_ID_KEY);
    return id ? { id, username: localStorage.getItem(USERNAME_KEY) } : null;
  } catch {
    return null;
  }
}

export function storeUser(user: StoredUser): void {
  try {
    localStorage.setItem(USER_ID_KEY, user.id);
    if (user.username) localStorage.setItem(USERNAME_KEY, user.username);
    else localStorage.removeItem(USERNAME_KEY);
  } catch {
    // A full or disabled storage: the session cookie still signs the member in; only the name shown
    // before the verify call is lost.
  }
}

export function clearStoredUser(): void {
  localStorage.removeItem(USER_ID_KEY);
  localStorage.removeItem(USERNAME_KEY);
}
