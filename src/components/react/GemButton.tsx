import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { GEM_TEXTS } from '../../../contract/gems.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { $gemIds, $gemToggles, loadGems, toggleGem } from '../../stores/gems.ts';
import '../../styles/gems.css';

/**
 * 'Save as gem' on a public card: a toggle button (aria-pressed) for approved members only. Its slot
 * is always there at a fixed size, so the button appearing after the ids load moves nothing (CLS 0).
 */
export default function GemButton({ threadId }: { threadId: string }) {
  const hydrated = useHydrated();
  const ids = useStore($gemIds);
  const toggle = useStore($gemToggles)[threadId];
  useEffect(() => {
    void loadGems();
  }, []);
  const saved = ids?.has(threadId) ?? false;
  return (
    <>
      <span className="gem-slot">
        {hydrated && ids && (
          <button
            type="button"
            className="gem-button"
            aria-pressed={saved}
            aria-label={GEM_TEXTS.save}
            title={saved ? GEM_TEXTS.saved : GEM_TEXTS.save}
            aria-busy={toggle?.busy ?? false}
            onClick={() => void toggleGem(threadId)}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path className="gem-button__body" d="M6 3h12l4 6-10 12L2 9z" />
              <path className="gem-button__facets" d="M2 9h20M9 3 7.5 9 12 21 16.5 9 15 3" />
            </svg>
          </button>
        )}
      </span>
      {/* After a press only (user input is not layout shift); the whole row, under the footer's items. */}
      {toggle?.error && (
        <span className="gem-error" role="alert">
          {toggle.error}
        </span>
      )}
    </>
  );
}
