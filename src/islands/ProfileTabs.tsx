import { useState } from 'react';
import { TEXTS } from '../../contract/texts.ts';
import TabList from './TabList.tsx';

type Collection = 'gems' | 'threads';

interface Props {
  gems: readonly string[];
  threads: readonly string[];
  /** The own profile says "My Gems"/"My Threads"; a public profile "Gems"/"Threads". */
  own: boolean;
}

/** The Gems and Threads tabs of a profile (ids only: full cards are not built yet, spec). */
export default function ProfileTabs({ gems, threads, own }: Props) {
  const [tab, setTab] = useState<Collection>('gems');
  const items = tab === 'gems' ? gems : threads;
  const prefix = own ? 'My ' : '';
  return (
    <TabList<Collection>
      label="Profile collections"
      tabs={[
        { id: 'gems', label: `${prefix}Gems`, count: gems.length },
        { id: 'threads', label: `${prefix}Threads`, count: threads.length },
      ]}
      selected={tab}
      onSelect={setTab}
    >
      {items.length > 0 ? (
        <ul>
          {items.map((id) => (
            <li key={id}>{id}</li>
          ))}
        </ul>
      ) : tab === 'gems' ? (
        <>
          <p>{TEXTS.noGems}</p>
          <p className="field-help">{TEXTS.gemsComingSoon}</p>
        </>
      ) : (
        <p>{TEXTS.noThreadsPosted}</p>
      )}
    </TabList>
  );
}
