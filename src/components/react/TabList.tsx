import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<T extends string> {
  id: T;
  /** Shown with its count when it has one: "Pending Users (2)". */
  label: string;
  count?: number | undefined;
}

interface Props<T extends string> {
  label: string;
  tabs: readonly TabItem<T>[];
  selected: T;
  onSelect(id: T): void;
  /** The selected tab's panel. */
  children: ReactNode;
}

/** Where each key moves in a row of `count` tabs from `index` (WAI-ARIA tabs: wraps around), or null. */
function target(key: string, index: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % count;
    case 'ArrowLeft':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * Tabs with counts and their panel, as the WAI-ARIA tabs pattern has them: one tab in the Tab order
 * (the selected one), Left/Right/Home/End move to a tab and select it (automatic activation).
 */
export default function TabList<T extends string>({ label, tabs, selected, onSelect, children }: Props<T>) {
  const buttons = useRef(new Map<T, HTMLButtonElement>());

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const next = target(event.key, Math.max(index, 0), tabs.length);
    const tab = next === null ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    buttons.current.get(tab.id)?.focus();
  }

  return (
    <section className="tabs">
      <div role="tablist" aria-label={label} className="tabs__list">
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) buttons.current.set(tab.id, element);
              else buttons.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={selected === tab.id}
            // Only the selected tab's panel exists: no reference to a panel that is not there.
            aria-controls={selected === tab.id ? `panel-${tab.id}` : undefined}
            tabIndex={selected === tab.id ? 0 : -1}
            className="tabs__tab"
            onClick={() => onSelect(tab.id)}
            onKeyDown={onKeyDown}
          >
            {tab.count === undefined ? tab.label : `${tab.label} (${tab.count})`}
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
