import { createHash } from 'node:crypto';

const STYLE = `body{margin:0;min-height:100vh;display:grid;place-items:center;background:#101010;color:#f5f5f5;font:16px/1.5 system-ui,sans-serif}
main{width:min(24rem,90vw);padding:2rem;border:1px solid #333;border-radius:16px;background:#181818}
h1{margin:0 0 .25rem;font-size:1.4rem}p{color:#b8b8b8;margin:.25rem 0 1.25rem}label{display:block;font-weight:600;margin-bottom:.35rem}
input{box-sizing:border-box;width:100%;padding:.6rem .75rem;border-radius:10px;border:1px solid #555;background:#0c0c0c;color:inherit;font:inherit}
.actions{display:flex;gap:.75rem;margin-top:1.25rem}button{flex:1;min-height:44px;border-radius:999px;font:inherit;font-weight:700;cursor:pointer}
.authorize{background:#f5f5f5;color:#101010;border:0}.cancel{background:transparent;color:#f5f5f5;border:1px solid #777}
:focus-visible{outline:3px solid #8ab4ff;outline-offset:2px}.error{color:#ffb4b4}
fieldset{border:1px solid #333;border-radius:10px;margin:0 0 1rem;padding:.5rem .75rem}legend{font-weight:600}.scope{display:flex;gap:.5rem;font-weight:400;margin:.25rem 0}.scope input{width:auto}`;

/**
 * The page's own CSP: its one inline stylesheet by hash, forms only to this origin, no framing. The
 * consent form's answer redirects to the app's callback, and browsers hold that redirect to
 * form-action too: the callbacks' origins are allowed (another one when the pages are not served by
 * the API's origin, API_BASE_URL).
 */
export function authorizePageCsp(redirectUris: readonly string[]): string {
  const callbackOrigins = [...new Set(redirectUris.map((uri) => new URL(uri).origin))];
  return [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
    ["form-action 'self'", ...callbackOrigins].join(' '),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** The simulated Threads consent screen: a 'Threads username' field, 'Authorize' and 'Cancel'. */
export function authorizePage(params: Record<string, string>, error?: string): string {
  const hidden = ['client_id', 'redirect_uri', 'scope', 'response_type', 'state']
    .map((name) => `<input type="hidden" name="${name}" value="${escape(params[name] ?? '')}">`)
    .join('');
  const requested = [...new Set((params.scope ?? '').split(/[\s,]+/).filter(Boolean))];
  // Like Meta's consent screen, each permission beyond threads_basic can be left out.
  const choices = requested
    .filter((scope) => scope !== 'threads_basic')
    .map(
      (scope) =>
        `<label class="scope"><input type="checkbox" name="grant_${escape(scope)}" checked> ${escape(scope)}</label>`,
    )
    .join('');
  return page(
    'Authorize · Simulated Threads',
    `<h1>Simulated Threads</h1><p>Curated Threads asks for: ${requested.map(escape).join(', ') || 'basic profile access'}. Any username works here; "admin" signs in as the admin.</p>
<form method="post" action="/simulated-threads/oauth/authorize">${hidden}
${choices ? `<fieldset><legend>Permissions</legend>${choices}</fieldset>` : ''}
<label for="username">Threads username</label>
<input id="username" name="username" autocomplete="username" required maxlength="30" pattern="[A-Za-z0-9._]+" value="${escape(params.username ?? '')}" autofocus>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<div class="actions"><button class="authorize" name="decision" value="authorize">Authorize</button><button class="cancel" name="decision" value="cancel" formnovalidate>Cancel</button></div></form>`,
  );
}

/** What Threads shows when the app or its redirect URI is not registered ("URL Blocked"). */
export function blockedPage(reason: string): string {
  return page('URL Blocked · Simulated Threads', `<h1>URL Blocked</h1><p>${escape(reason)}</p>`);
}

/**
 * The simulated Threads settings page for removing the app: Meta then calls the app's deauthorize
 * and data-deletion callbacks. `result` shows the outcome of the last removal.
 */
export function removeAppPage(result?: { username: string; statusUrl: string } | { error: string }): string {
  let outcome = '';
  if (result && 'error' in result) outcome = `<p class="error" role="alert">${escape(result.error)}</p>`;
  if (result && 'statusUrl' in result) {
    outcome = `<p role="status">Removed for @${escape(result.username)}. <a href="${escape(result.statusUrl)}">Check the deletion status</a></p>`;
  }
  return page(
    'Apps and websites · Simulated Threads',
    `<h1>Apps and websites</h1><p>Removing Curated Threads asks it to delete the data it holds about you.</p>${outcome}
<form method="post" action="/simulated-threads/settings/apps/remove">
<label for="username">Threads username</label>
<input id="username" name="username" required maxlength="30" pattern="[A-Za-z0-9._]+" autocomplete="username">
<div class="actions"><button class="authorize">Remove app</button></div></form>`,
  );
}
