import { useState } from 'react';
import {
  AUTHOR_TEXTS,
  SHOW_AS_CARDS_LABEL,
  type AuthorCardsResult,
  type AuthorOverview,
} from '../../../contract/authors.ts';
import { api, detailOr } from '../../lib/api.ts';

interface Props {
  overview: AuthorOverview;
  onChange: (shown: boolean, done: { text: string; tone: 'success' | 'error' }) => void;
}

/** What the author's choice means, given how the site shows the posts of those who did not choose. */
function explanation(overview: AuthorOverview): string {
  if (overview.post_display === 'card') return AUTHOR_TEXTS.cardsEveryone;
  return overview.shown_as_cards ? AUTHOR_TEXTS.cardsCard : AUTHOR_TEXTS.cardsEmbed;
}

/**
 * 'Show my posts as cards' (decision 070): the author's consent to our full cards in public. A plain
 * checkbox: it keeps the focus while the change is saved, and says the outcome in the status line.
 */
export default function CardConsent({ overview, onChange }: Props) {
  const [busy, setBusy] = useState(false);

  async function toggle(shown: boolean) {
    // Not `disabled` while saving: a disabled checkbox drops the keyboard focus.
    if (busy) return;
    setBusy(true);
    try {
      const result = await api<AuthorCardsResult>('/api/authors/me/cards', {
        method: shown ? 'POST' : 'DELETE',
      });
      onChange(result.shown_as_cards, {
        text: result.shown_as_cards ? AUTHOR_TEXTS.cardsOnDone : AUTHOR_TEXTS.cardsOffDone,
        tone: 'success',
      });
    } catch (error) {
      onChange(overview.shown_as_cards, { text: detailOr(error, AUTHOR_TEXTS.actionFailed), tone: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel author-cards" aria-labelledby="author-cards-title">
      <h2 id="author-cards-title">{AUTHOR_TEXTS.cardsHeading}</h2>
      <p id="author-cards-explained">{explanation(overview)}</p>
      <label className="author-cards__check">
        <input
          type="checkbox"
          checked={overview.shown_as_cards}
          aria-describedby="author-cards-explained"
          aria-busy={busy}
          onChange={(event) => void toggle(event.currentTarget.checked)}
        />
        {SHOW_AS_CARDS_LABEL}
      </label>
    </section>
  );
}
