// Types for the project's own client directive (registered in astro.config.mjs).
declare namespace Astro {
  interface ClientDirectives {
    /** Hydrate on the visitor's first interaction with the island (src/directives/interaction.ts). */
    'client:interaction'?: boolean;
  }
}
