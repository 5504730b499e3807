import type { ReactNode } from 'react';

export interface TabItem<T extends string> {
  id: T;
  /** Shown with its count: "Pending Users (2)". */
  label: string;
  count: number;
}

interface Props<T extends string> {
  label: string;
  tabs: readonly TabItem<T>[];
  selected: T;
  onSelect(id: T): void;
  /** The selected tab's panel. */
  children: ReactNode;
}

/** Tabs with counts and their panel, wired for assistive technology (tablist, tab, tabpanel). */
export default function TabList<T extends string>({ label, tabs, selected, onSelect, children }: Props<T>) {
  return (
    <section className="tabs">
      <div role="tablist" aria-label={label} className="tabs__list">
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={selected === tab.id}
            aria-controls={`panel-${tab.id}`}
            className="tabs__tab"
            onClick={() => onSelect(tab.id)}
          >
            {tab.label} ({tab.count})
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`panel-${selected}`}
        aria-labelledby={`tab-${selected}`}
        className="tabs__panel"
      >
        {children}
      </div>
    </section>
  );
}
