import { createContext } from 'preact';

/** Where a page is served: the public base and the page's own path with its query. */
export interface SiteAddress {
  baseUrl: string;
  path: string;
}

/** Gives the layout the page's absolute address, for link previews, hreflang alternates and the canonical link. */
export const SiteAddressContext = createContext<SiteAddress | undefined>(undefined);
