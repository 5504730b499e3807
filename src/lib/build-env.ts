// Build-time only (Astro frontmatter): values baked into the static pages when the site is built.
import { SITE } from '../../contract/site.ts';

/** Address for privacy and deletion requests (`CONTACT_EMAIL`, with a default). */
export const contactEmail = process.env.CONTACT_EMAIL?.trim() || SITE.defaultContactEmail;

/** Whether the server can mail the weekly digest (SMTP_URL set): home offers the subscribe form. */
export const digestMail = process.env.DIGEST_MAIL === 'true';

/** The catalogue the home page is pre-rendered from: the server passes its export; a standalone build reads the sample. */
export const catalogueDir = process.env.CATALOGUE_DIR?.trim() || 'data';

/** Where the pages load Threads' embed script from (`EMBED_SCRIPT_URL`, decision 070); unset: no embeds. */
export const embedScriptUrl = process.env.EMBED_SCRIPT_URL?.trim() || undefined;
