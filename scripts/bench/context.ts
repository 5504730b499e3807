/** What every step of `npm run bench` is handed: options, pinning, ports, progress and shared pieces. */
import { startBlankPage, type BlankPage } from './blank-page.ts';
import { startBrowser, type Browser } from './lighthouse.ts';
import { startLiveServer, type LiveServer } from './live-server.ts';
import type { BenchOptions } from './options.ts';
import type { Pinning } from './processes.ts';
import type { LighthouseSummary } from './results.ts';
import { cachedSite, type BenchSite } from './sites.ts';
import { freePort } from '../free-port.ts';

/** Offsets from the base port (ten ports in all). */
const PORTS = { product: 0, nginx: 1, bare: 2, blank: 3, browser: 5 } as const;
export type PortName = keyof typeof PORTS;

/** The ports of a run from `basePort` on. */
export function portsFrom(basePort: number): Record<PortName, number> {
  return Object.fromEntries(
    Object.entries(PORTS).map(([name, offset]) => [name, basePort + offset]),
  ) as Record<PortName, number>;
}

/**
 * A free loopback port for each name (the smoke run, which must not collide with anything), none of
 * them in `taken` (the ports of the smoke's other lanes), which gets them added.
 */
export async function freePorts(taken = new Set<number>()): Promise<Record<PortName, number>> {
  const ports: Partial<Record<PortName, number>> = {};
  for (const name of Object.keys(PORTS) as PortName[]) {
    // freePort may hand the same port twice (it is free again once closed): ask until they differ.
    let port = await freePort();
    for (let attempt = 0; taken.has(port) && attempt < 20; attempt++) port = await freePort();
    taken.add(port);
    ports[name] = port;
  }
  return ports as Record<PortName, number>;
}

export interface StepContext {
  options: BenchOptions;
  pinning: Pinning;
  progress(message: string): void;
  port(name: PortName): number;
  /** The product server's URL: every site is built for it (the URL is baked into the pages). */
  productUrl: string;
  /** The cached site of `count` threads, prepared at most once per run. */
  site(count: number): Promise<BenchSite>;
  /** One Chromium for every Lighthouse run, started on first use. */
  browser(): Promise<Browser>;
  /** The blank reference page measured beside every Lighthouse page (decision 053), started on first use. */
  blankPage(): Promise<BlankPage>;
  /** The server of the API and approval steps (fresh database), started on first use. */
  live(): Promise<LiveServer>;
  /** Stops the live server (before a step that needs its port). */
  stopLive(): Promise<void>;
  /** Home's Lighthouse medians at 1k threads once measured (the no-JS step compares with them). */
  home1k: LighthouseSummary | null;
  /** Lines for the report's notes. */
  notes: string[];
  close(): Promise<void>;
}

export function createContext(
  options: BenchOptions,
  pinning: Pinning,
  progress: (message: string) => void,
  ports: Record<PortName, number> = portsFrom(options.basePort),
): StepContext {
  const sites = new Map<number, Promise<BenchSite>>();
  let browser: Promise<Browser> | null = null;
  let blank: Promise<BlankPage> | null = null;
  let live: Promise<LiveServer> | null = null;
  const port = (name: PortName) => ports[name];
  const productUrl = `http://127.0.0.1:${port('product')}`;
  const stopLive = async () => {
    const running = live;
    live = null;
    if (running) await (await running.catch(() => null))?.server.stop();
  };
  return {
    options,
    pinning,
    progress,
    port,
    productUrl,
    site(count) {
      let site = sites.get(count);
      if (!site) {
        site = cachedSite(count, productUrl, progress);
        sites.set(count, site);
        // A failed preparation is tried again by the next step that needs it.
        site.catch(() => sites.delete(count));
      }
      return site;
    },
    browser() {
      browser ??= startBrowser(port('browser'));
      return browser;
    },
    blankPage() {
      blank ??= startBlankPage(port('blank'));
      return blank;
    },
    live() {
      live ??= startLiveServer(this);
      return live;
    },
    stopLive,
    home1k: null,
    notes: [],
    async close() {
      await stopLive();
      if (browser) await (await browser.catch(() => null))?.stop();
      browser = null;
      if (blank) await (await blank.catch(() => null))?.stop();
      blank = null;
    },
  };
}
