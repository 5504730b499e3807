import { ageInHours, freshnessText } from '../../../contract/freshness.ts';
import { loadManifest } from '../../stores/manifest.ts';

/**
 * Home's freshness line without React: the grid island hydrates only on first use, but the age
 * ("Updated 3 hours ago") is worth showing at once. Like FreshnessLine, it reads the served manifest
 * (the build's date stays when that fails) and measures the age on the visitor's clock. The line
 * sits in an Astro slot of the grid, which React never re-renders.
 */
export function startFreshnessLine(): void {
  const time = document.querySelector<HTMLTimeElement>('.freshness time');
  if (!time) return;
  const built = time.dateTime;
  void loadManifest().then((check) => {
    const generatedAt = check.manifest?.generatedAt ?? built;
    if (!generatedAt) return;
    time.dateTime = generatedAt;
    time.textContent = freshnessText({ ageHours: ageInHours(generatedAt, new Date(check.checkedAt)) });
  });
}
