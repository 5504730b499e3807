import { calendarDate } from '../../../contract/calendar-date.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { handleInPermalink } from '../../../contract/threads-embed.ts';
import type { SocialCard } from './social-card.ts';

/**
 * What a thread's preview picture says (decision 048). A post shown through Threads' embed
 * (decision 070) gives none of its copy, whatever the card still carries: the picture names its
 * author by the permalink's handle, and its topic, under the site's name.
 */
export function threadSocialCard(card: ThreadCard): SocialCard {
  const date = card.timestamp ? calendarDate(card.timestamp) : null;
  const topic = card.topic_tag ? `#${card.topic_tag}` : null;
  if (card.display === 'embed') {
    return {
      kind: 'Thread',
      headline: handleInPermalink(card.permalink) ?? 'A post on Threads',
      headlineStyle: 'name',
      body: topic ? `A post on ${topic}, curated from Threads.` : 'A post curated from Threads.',
      footer: [topic, date].filter(Boolean).join(' · '),
    };
  }
  return {
    kind: 'Thread',
    headline: card.content.trim() || `A post by ${card.handle}`,
    headlineStyle: 'quote',
    body: '',
    footer: [card.handle, topic, date].filter(Boolean).join(' · '),
  };
}
