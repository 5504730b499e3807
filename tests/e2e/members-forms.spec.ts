import type { Locator, Page } from '@playwright/test';
import { MEMBER_TEXTS } from '../../contract/membership.ts';
import { USERNAME_MESSAGES } from '../../contract/profile-rules.ts';
import { TEXTS } from '../../contract/texts.ts';
import { expect, test } from './fixtures.ts';
import { callApi, signInApproved } from './member-helpers.ts';

// Members' forms (issue 10): the profile form's field errors, 'Saved' and counter; /submit on a phone.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

const run = Date.now().toString(36).slice(-5);

/** WCAG contrast ratio of two computed `rgb(...)` colours. */
function contrast(foreground: string, background: string): number {
  const luminance = (color: string) => {
    const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number).map((value) => {
      const channel = value / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

const colorOf = (locator: Locator) => locator.evaluate((node) => getComputedStyle(node).color);

/** The field's error: shown, tied to the field by aria-describedby, the field marked invalid. */
async function expectFieldError(page: Page, field: Locator, message: string): Promise<void> {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ');
  const errors = page.locator(ids.map((id) => `[id="${id}"].field-error`).join(', '));
  await expect(errors).toHaveText(message);
}

test('profile edit: errors beside each field, the server detail on the name, a red counter past 300, then Saved', async ({
  page,
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/); // the taken name this test tries on purpose
  const holder = await newPage();
  await signInApproved(holder, newPage, `holder_${run}`);
  const takenName = `Taken_${run}`;
  expect(
    await holder.evaluate(
      async (name) =>
        (
          await fetch('/api/user/profile', {
            method: 'PUT',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ display_username: name, bio: '' }),
          })
        ).status,
      takenName,
    ),
  ).toBe(200);

  const member = `editor_${run}`;
  await signInApproved(page, newPage, member);
  await page.goto('/profile');
  await page.getByRole('button', { name: TEXTS.editProfile }).click();
  const name = page.getByLabel('Display username');
  await expect(name).toBeFocused(); // opening the form puts the focus in it
  const bio = page.getByLabel('Bio');
  const counter = page.locator('#bio-help');
  const save = page.getByRole('button', { name: TEXTS.saveChanges });
  const puts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT') puts.push(new URL(request.url()).pathname);
  });

  // Both fields wrong: each says why, beside itself; focus goes to the first; nothing is sent.
  await name.fill('ab');
  await bio.fill('x'.repeat(301));
  await expect(counter).toHaveText(`301 / 300 (${MEMBER_TEXTS.bioTooLong}: 1 over)`);
  await save.click();
  await expectFieldError(page, name, USERNAME_MESSAGES.length);
  await expectFieldError(page, bio, 'Bio must be at most 300 characters.');
  await expect(name).toBeFocused();
  expect(puts).toEqual([]);
  // The counter is red past 300 (the error colour), and back to the help colour at 300.
  const red = await colorOf(page.locator('#bio-error'));
  expect(await colorOf(counter)).toBe(red);
  await bio.fill('x'.repeat(300));
  await expect(counter).toHaveText('300 / 300');
  expect(await colorOf(counter)).not.toBe(red);

  for (const [value, message] of [
    ['bad.name', USERNAME_MESSAGES.characters],
    ['Dashboard', USERNAME_MESSAGES.reserved],
  ] as const) {
    await name.fill(value);
    await save.click();
    await expectFieldError(page, name, message);
  }
  await expect(bio).not.toHaveAttribute('aria-invalid', 'true');

  // The server's refusal lands on the field it concerns.
  await name.fill(takenName.toLowerCase());
  await save.click();
  await expectFieldError(page, name, USERNAME_MESSAGES.taken);
  await expect(name).toBeFocused();
  expect(puts).toEqual(['/api/user/profile']);

  await name.fill(`Editor_${run}`);
  await bio.fill('Grids and type.');
  await save.click();
  const saved = page.getByRole('status').filter({ hasText: MEMBER_TEXTS.saved });
  await expect(saved).toHaveText(MEMBER_TEXTS.saved);
  await expect(page.locator('.profile-facts')).toContainText(`Editor_${run}`);
  await expect(page.getByRole('button', { name: TEXTS.editProfile })).toBeFocused();
  // Editing again clears the old confirmation.
  await page.getByRole('button', { name: TEXTS.editProfile }).click();
  await expect(saved).toHaveCount(0);
});

for (const width of [375, 320]) {
  test(`/submit at ${width} px: no sideways overflow; the fields stay inside the card`, async ({
    page,
    newPage,
  }) => {
    await signInApproved(page, newPage, `narrow${width}_${run}`);
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/submit');
    const form = page.getByRole('form', { name: TEXTS.submitThread });
    await expect(form).toBeVisible();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    const card = await form.boundingBox();
    for (const field of [form.getByLabel(TEXTS.threadUrl), form.getByLabel(TEXTS.notes)]) {
      const box = await field.boundingBox();
      expect(box && card && box.x + box.width).toBeLessThanOrEqual((card?.x ?? 0) + (card?.width ?? 0));
    }
  });
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the success banner uses the success colour with AA contrast (${colorScheme})`, async ({
    page,
    newPage,
  }) => {
    await page.emulateMedia({ colorScheme });
    await signInApproved(page, newPage, `banner_${colorScheme}_${run}`);
    await page.goto('/submit');
    const form = page.getByRole('form', { name: TEXTS.submitThread });
    await form
      .getByLabel(TEXTS.threadUrl)
      .fill(`https://www.threads.com/@someone/post/Banner${colorScheme}${run}`);
    await form.getByRole('button', { name: TEXTS.submitThread }).click();
    const banner = page.locator('.submit-banner');
    await expect(banner).toHaveText(TEXTS.submitted);
    const { color, background } = await banner.evaluate((node) => {
      const style = getComputedStyle(node);
      return { color: style.color, background: style.backgroundColor };
    });
    expect(contrast(color, background)).toBeGreaterThanOrEqual(4.5);
    // Green: the success colour, not the accent's.
    const [r = 0, g = 0, b = 0] = (background.match(/\d+/g) ?? []).map(Number);
    expect(g).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(b);
    expect((await callApi(page, '/api/dashboard/manual-submissions')).status).toBe(200);
  });
}
