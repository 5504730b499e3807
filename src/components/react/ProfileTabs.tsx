import { useState } from 'react';
import { newestShown, type ProfileCollections } from '../../../contract/gems.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { TEXTS } from '../../../contract/texts.ts';
import TabList from './TabList.tsx';
import ThreadGrid from './ThreadGrid.tsx';
import '../../styles/threads.css';
import '../../styles/gems.css';

type Collection = 'gems' | 'threads';

interface Props {
  /** The profile's gems and approved own threads: cards (newest first, bounded) and exact counts. */
  collections: ProfileCollections;
  /** The own profile says "My Gems"/"My Threads"; a public profile "Gems"/"Threads". */
  own: boolean;
}

/** One collection as cards in the public grid, or the spec's empty text. */
function CollectionPanel({ cards, count, empty }: { cards: ThreadCard[]; count: number; empty: string }) {
  if (cards.length === 0) return <p>{empty}</p>;
  return (
    <>
      <ThreadGrid pages={[cards]} />
      {count > cards.length && (
        <p className="field-help profile-collection__note">{newestShown(cards.length, count)}</p>
      )}
    </>
  );
}

/** The Gems and Threads tabs of a profile, with their counts, as thread cards. */
export default function ProfileTabs({ collections, own }: Props) {
  const [tab, setTab] = useState<Collection>('gems');
  const prefix = own ? 'My ' : '';
  return (
    <TabList<Collection>
      label="Profile collections"
      tabs={[
        { id: 'gems', label: `${prefix}Gems`, count: collections.gem_count },
        { id: 'threads', label: `${prefix}Threads`, count: collections.thread_count },
      ]}
      selected={tab}
      onSelect={setTab}
    >
      {tab === 'gems' ? (
        <CollectionPanel cards={collections.gem_cards} count={collections.gem_count} empty={TEXTS.noGems} />
      ) : (
        <>
          {own && (
            <p className="field-help">
              {TEXTS.ownThreadsCounted} <a href="/dashboard#my-threads">{TEXTS.ownThreadsDashboardLink}</a>.
            </p>
          )}
          <CollectionPanel
            cards={collections.thread_cards}
            count={collections.thread_count}
            empty={TEXTS.noThreadsPosted}
          />
        </>
      )}
    </TabList>
  );
}
