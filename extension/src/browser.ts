// One name for the WebExtension API in Chromium (`chrome`, promise-based in MV3) and
// Firefox (`browser`). Only the calls Rhizome uses are typed.
export interface Tab {
  id?: number;
  url?: string;
  title?: string;
}
export interface MenuClick {
  menuItemId: string | number;
  pageUrl?: string;
  linkUrl?: string;
  linkText?: string; // Firefox only
  srcUrl?: string;
  selectionText?: string;
  mediaType?: string;
}
interface Event<F> {
  addListener(f: F): void;
}
export interface ExtApi {
  runtime: {
    id: string;
    getURL(path: string): string;
    openOptionsPage(): Promise<void>;
    onInstalled: Event<(details: { reason: string }) => void>;
  };
  storage: { local: { get(keys: string[]): Promise<Record<string, unknown>>; set(items: Record<string, unknown>): Promise<void> } };
  tabs: {
    query(q: { active: boolean; currentWindow: boolean }): Promise<Tab[]>;
    get(id: number): Promise<Tab>;
    create(p: { url: string }): Promise<Tab>;
    /** Fires for every tab; `tab.url` is there only where the extension may read the page. */
    onUpdated: Event<(tabId: number, change: { status?: string }, tab: Tab) => void>;
  };
  scripting: {
    executeScript<T>(p: { target: { tabId: number }; func: (...args: never[]) => T; args?: unknown[] }): Promise<{ result?: T }[]>;
  };
  permissions: {
    request(p: { origins: string[] }): Promise<boolean>;
    contains(p: { origins: string[] }): Promise<boolean>;
  };
  contextMenus: {
    create(p: { id: string; title: string; contexts: string[] }): void;
    removeAll(): Promise<void>;
    onClicked: Event<(info: MenuClick, tab?: Tab) => void>;
  };
  action: {
    setBadgeText(p: { text: string; tabId?: number }): Promise<void>;
    setBadgeBackgroundColor(p: { color: string; tabId?: number }): Promise<void>;
    setTitle(p: { title: string; tabId?: number }): Promise<void>;
  };
}

const g = globalThis as unknown as { browser?: ExtApi; chrome?: ExtApi };
export const ext: ExtApi = (g.browser ?? g.chrome)!;
