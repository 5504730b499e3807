import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { describeFreshness, freshnessText } from '../../../contract/freshness.ts';
import type { Manifest } from '../../../contract/manifest.ts';
import { calendarDate } from '../../lib/format.ts';
import { $manifestCheck, loadManifest } from '../../stores/manifest.ts';

/**
 * "Updated N hours ago": without JavaScript the build-time manifest shows its date; after hydration
 * the current manifest is fetched and its age computed against the visitor's clock.
 */
export default function FreshnessLine({ builtManifest }: { builtManifest: Manifest | null }) {
  const check = useStore($manifestCheck);
  useEffect(() => {
    void loadManifest();
  }, []);
  const manifest = check?.manifest ?? builtManifest;
  if (!manifest) return null;
  const text = check
    ? freshnessText(describeFreshness(manifest, new Date(check.checkedAt)))
    : `Updated ${calendarDate(manifest.generatedAt)}`;
  return (
    // The build's catalogue, for the home's freshness script to compare with the served one.
    <p className="freshness" data-version={builtManifest?.version} data-head={builtManifest?.head}>
      <time dateTime={manifest.generatedAt}>{text}</time>
    </p>
  );
}
