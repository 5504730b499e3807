// The renderer's bundle (src/renderer/entrypoint.ts) as the publisher's renderer process sees it (decision 043).

/** One page the data decides: the URL path to render and the file, relative to the site, that holds it. */
export interface RenderedPage {
  url: string;
  file: string;
}

/** What the renderer's server entry exports. */
export interface RendererEntry {
  /** Every page the data decides, as it is on disk now (a fresh pass: earlier reads are forgotten). */
  pagesToRender(): Promise<RenderedPage[]>;
  /** One page's body, rendered as a visitor at `origin` would be given it. */
  renderPage(origin: string, page: RenderedPage): Promise<string>;
}
