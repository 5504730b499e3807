import { useState } from 'react';
import { TEXTS } from '../../contract/texts.ts';

interface Props {
  gems: readonly string[];
  threads: readonly string[];
  /** The own profile says "My Gems"/"My Threads"; a public profile "Gems"/"Threads". */
  own: boolean;
}

/** The Gems and Threads tabs of a profile (ids only: full cards are not built yet, spec). */
export default function ProfileTabs({ gems, threads, own }: Props) {
  const [tab, setTab] = useState<'gems' | 'threads'>('gems');
  const tabs = [
    { id: 'gems', label: `${own ? 'My ' : ''}Gems`, items: gems },
    { id: 'threads', label: `${own ? 'My ' : ''}Threads`, items: threads },
  ] as const;
  const current = tabs.find((t) => t.id === tab) ?? tabs[0];
  return (
    <section className="tabs">
      <div role="tablist" aria-label="Profile collections" className="tabs__list">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            className="tabs__tab"
            onClick={() => setTab(t.id)}
          >
            {t.label} ({t.items.length})
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`panel-${current.id}`}
        aria-labelledby={`tab-${current.id}`}
        className="tabs__panel"
      >
        {current.items.length > 0 ? (
          <ul>
            {current.items.map((id) => (
              <li key={id}>{id}</li>
            ))}
          </ul>
        ) : current.id === 'gems' ? (
          <>
            <p>{TEXTS.noGems}</p>
            <p className="field-help">{TEXTS.gemsComingSoon}</p>
          </>
        ) : (
          <p>{TEXTS.noThreadsPosted}</p>
        )}
      </div>
    </section>
  );
}
