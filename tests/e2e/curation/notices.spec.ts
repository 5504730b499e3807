import { NOTICE_TEXTS } from '../../../contract/notices.ts';
import { expect, signedInPage, test } from '../fixtures.ts';
import { callApi, signInApproved } from '../member-helpers.ts';

const run = Date.now().toString(36).slice(-5);

// In the curation project: it decides a thread, which the site project's empty moderation log must not see.
// Issue 22, decision 056: a member learns in the header that their submission was declined, and why.
test('a member sees the notice of their declined submission with its reason; opening marks it read', async ({
  page,
  newPage,
}) => {
  test.slow(); // a sign-in, an admin's approval and decision in a second browser, two page loads
  const member = `note_${run}`;
  await signInApproved(page, newPage, member);
  const link = `https://www.threads.com/@someone/post/Notice${run}`;
  expect((await callApi(page, '/api/dashboard/manual-submission', { thread_url: link })).status).toBe(201);

  const admin = await signedInPage(newPage, 'admin');
  const queue = (await callApi(admin, '/api/threads/pending-review?source=manual_submission')).json as {
    threads: { id: string; permalink: string }[];
  };
  const thread = queue.threads.find((item) => item.permalink.endsWith(`/Notice${run}`));
  expect(thread, 'the submission waits in the queue').toBeDefined();
  const reason = 'Not about design';
  const decided = await callApi(admin, '/api/threads/reject', { thread_id: thread?.id, reason });
  expect(decided.status).toBe(200);
  await admin.close();

  await page.goto('/');
  // The invite's approval and the declined submission.
  const button = page.getByRole('button', { name: /^Notices/ });
  await expect(button).toHaveAccessibleName(NOTICE_TEXTS.label(2));
  await expect(button).toContainText('2');
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const panel = page.locator(`#${await button.getAttribute('aria-controls')}`);
  const notice = panel.getByRole('listitem').filter({ hasText: `Your submission was declined: ${reason}` });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(NOTICE_TEXTS.unread);
  // The post's own link: the handle typed into the submission names no one (decision 063).
  await expect(notice.getByRole('link', { name: NOTICE_TEXTS.viewThread })).toHaveAttribute(
    'href',
    `https://www.threads.com/t/Notice${run}`,
  );
  await expect(panel.getByRole('listitem')).toHaveCount(2);
  // Opening marked them read: the count is gone from the button's name and text.
  await expect(button).toHaveAccessibleName(NOTICE_TEXTS.label(0));
  await expect(button).not.toContainText('2');

  // Tab goes from the button into the list; Escape closes it and gives focus back to the button.
  await button.focus();
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('link').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(button).toBeFocused();
  await expect(panel).toBeHidden();

  // Read stays read on the next page.
  await page.reload();
  await expect(button).toHaveAccessibleName(NOTICE_TEXTS.label(0));
  await expect(button).toHaveText(NOTICE_TEXTS.button);

  // On a phone the open list stays within the screen.
  // The panel's id comes from React's useId, counted as islands mount, so it may differ after the
  // reload: find the panel again from the button.
  await page.setViewportSize({ width: 360, height: 740 });
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const reopened = page.locator(`#${await button.getAttribute('aria-controls')}`);
  await expect(
    reopened.getByRole('listitem').filter({ hasText: `Your submission was declined: ${reason}` }),
  ).toBeVisible();
  const box = await reopened.boundingBox();
  expect(box?.x).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(360);
});
