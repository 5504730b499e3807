// What the publisher and its renderer process (render-worker.ts) say to each other.

/** Render every page the data decides into `siteDir`, as a visitor at `origin` gets them. */
export interface RenderRequest {
  siteDir: string;
  origin: string;
}

/** The renderer loaded its bundle; then, per request, the files it wrote or why it failed. */
export type RenderReply = { ready: true } | { files: string[] } | { error: string };
