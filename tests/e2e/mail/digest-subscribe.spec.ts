import { DIGEST_TEXTS } from '../../../contract/digest.ts';
import { linkIn, startSmtpInbox } from '../../integration/helpers/smtp-inbox.ts';
import { MAIL_SITE, MAIL_SMTP_PORT } from '../../site-under-test.ts';
import { expect, test } from '../fixtures.ts';

// Issue 22, decision 054: a visitor subscribes to the weekly digest on home and confirms through the
// link in the mail they received. The server was started with SMTP_URL at this test's own SMTP
// server; its send-mail job sends the outbox every minute (its first run a minute after start), so
// the mail can take up to about two minutes to arrive.
test.describe.configure({ timeout: 240_000 });

const run = Date.now().toString(36).slice(-5);

test('a visitor subscribes on home without JavaScript and confirms through the mailed link', async ({
  browser,
  baseURL,
}) => {
  const inbox = await startSmtpInbox(MAIL_SMTP_PORT);
  // The form is a plain one: no script is needed to subscribe, nor to confirm.
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: baseURL ?? '' });
  try {
    const page = await context.newPage();
    await page.goto('/');
    const email = `reader-${run}@example.com`;
    await page.getByLabel('The weekly digest by e-mail').fill(email);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(DIGEST_TEXTS.subscribeTitle);
    await expect(page.getByRole('status')).toHaveText(DIGEST_TEXTS.checkInbox);

    await expect
      .poll(() => inbox.received.filter((mail) => mail.to.includes(email)).length, {
        timeout: 180_000,
        intervals: [2_000],
      })
      .toBe(1);
    const mail = inbox.received.find((each) => each.to.includes(email));
    if (!mail) throw new Error('no confirmation mail');
    expect(mail.mail.subject).toBe('Confirm your Curated Threads weekly digest');
    const link = linkIn(mail, `${MAIL_SITE.publicUrl}/api/digest/confirm?`);

    // The link only shows a button (a mail scanner confirms nobody); the button confirms.
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(DIGEST_TEXTS.confirmTitle);
    await page.getByRole('button', { name: DIGEST_TEXTS.confirmButton }).click();
    await expect(page.getByRole('status')).toHaveText(DIGEST_TEXTS.confirmed);
  } finally {
    await context.close();
    await inbox.close();
  }
});
