import { ageInHours, freshnessText } from '../../../contract/freshness.ts';
import { CATALOGUE_MOVED_EVENT, catalogueMoved } from '../../lib/catalogue-moved.ts';
import { loadManifest } from '../../stores/manifest.ts';

/**
 * Home's freshness line without React: the grid island hydrates only on first use, but the age
 * ("Updated 3 hours ago") is worth showing at once. Like FreshnessLine, it reads the served manifest
 * (the build's date stays when that fails) and measures the age on the visitor's clock. The line
 * sits in an Astro slot of the grid, which React never re-renders. When the served catalogue is
 * newer than the built one (an approval since the build), it tells the grid to wake up and show it.
 */
export function startFreshnessLine(): void {
  const time = document.querySelector<HTMLTimeElement>('.freshness time');
  if (!time) return;
  const built = time.dateTime;
  const line = time.closest<HTMLElement>('.freshness');
  void loadManifest().then((check) => {
    if (catalogueMoved({ version: line?.dataset.version, head: line?.dataset.head }, check.manifest))
      document.dispatchEvent(new Event(CATALOGUE_MOVED_EVENT));
    const generatedAt = check.manifest?.generatedAt ?? built;
    if (!generatedAt) return;
    time.dateTime = generatedAt;
    time.textContent = freshnessText({ ageHours: ageInHours(generatedAt, new Date(check.checkedAt)) });
  });
}
