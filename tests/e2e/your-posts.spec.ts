import { AUTHOR_TEXTS } from '../../contract/authors.ts';
import { TEXTS } from '../../contract/texts.ts';
import { expect, signInAs, test } from './fixtures.ts';

// Authors in control (issue 18, decision 028): every card and the footer lead to 'Is this your post?'.

test("every catalogue card and the footer link to 'Is this your post?', which explains and offers sign-in", async ({
  page,
}) => {
  await page.goto('/');
  const cards = page.locator('article.thread-card');
  await expect(cards.first()).toBeVisible();
  const cardCount = await cards.count();
  expect(cardCount).toBeGreaterThan(0);
  await expect(cards.getByRole('link', { name: AUTHOR_TEXTS.link })).toHaveCount(cardCount);
  const footerLink = page.getByRole('contentinfo').getByRole('link', { name: AUTHOR_TEXTS.link });
  await expect(footerLink).toHaveAttribute('href', '/your-posts');

  // By keyboard, from a card.
  await cards.first().getByRole('link', { name: AUTHOR_TEXTS.link }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((url) => url.pathname.replace(/\/$/, '') === '/your-posts');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(AUTHOR_TEXTS.heading);
  await expect(page.getByRole('heading', { name: 'What you can do' })).toBeVisible();
  await expect(page.getByText(AUTHOR_TEXTS.signInPrompt)).toBeVisible();
  // The page's own sign-in button beside the header's: both start the same flow.
  await expect(page.getByRole('button', { name: TEXTS.login })).toHaveCount(2);
});

test('signed in without an invite, a person with no curated posts reads the empty state', async ({
  page,
}) => {
  await signInAs(page, 'no_posts_here');
  await page.goto('/your-posts');
  await expect(page.getByText(AUTHOR_TEXTS.empty)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Curation of @no_posts_here' })).toBeVisible();
  await expect(page.getByRole('button', { name: AUTHOR_TEXTS.optOut, exact: true })).toBeEnabled();
});
