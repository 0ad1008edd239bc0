// A signed-in workspace's HTML names its page's chunks inside <template id="page-chunks">, where
// they are inert (vite.config.ts, routePages; routeModules.ts says why). The entry adds them to the
// document a few per task (main.tsx), so the page's code downloads while the session is checked,
// and a workspace page waits for that before it asks for its code (lazyPages.tsx). Vite's preload
// helper then finds the links in place, instead of adding some 40 in one task while React renders:
// each added link costs the browser about a millisecond of main thread.
// A sign-in page does the same for the workspace it leads to, from the build's list of every
// workspace's chunks, while the password is checked (LoginForm.tsx): that page came without a
// template, and the dashboard's code then downloads before the sign-in is answered.
import type { WorkspacePreload } from '../features/auth/LoginForm';
import { WORKSPACE_CHUNKS_FILE } from './routeModules';

/** Links added per task. */
const LINKS_PER_TASK = 6;

let added: Promise<void> = Promise.resolve();

/** Adds the links a few per task; settles once all are in the document. */
function addFewPerTask(links: Element[]): Promise<void> {
  return new Promise((resolve) => {
    const addSome = () => {
      document.head.append(...links.splice(0, LINKS_PER_TASK));
      if (links.length > 0) setTimeout(addSome);
      else resolve();
    };
    setTimeout(addSome);
  });
}

/** Starts adding the chunks the page's HTML names, if any. */
export function addPageChunks() {
  const template = document.getElementById('page-chunks');
  if (!(template instanceof HTMLTemplateElement)) return;
  const links = [...template.content.children];
  template.remove();
  added = addFewPerTask(links);
}

/**
 * How long a workspace page waits for the list after a sign-in: a list that does not come (a
 * stalled request) must not keep the signed-in user from their page.
 */
const LIST_WAIT_MS = 3000;

let workspaceLists: Promise<Record<string, unknown>> | undefined;

/**
 * The build's list of every workspace's chunks, asked for once. A sign-in form asks when it is
 * first focused, so that the list is in by the time the user signs in. Without it (the development
 * server has none), with it unreadable or late, Vite's helper adds the links as before.
 */
export function workspaceChunkLists(): Promise<Record<string, unknown>> {
  workspaceLists ??= fetch(`/${WORKSPACE_CHUNKS_FILE}`, { signal: AbortSignal.timeout(LIST_WAIT_MS) })
    .then((response) => (response.ok ? (response.json() as Promise<Record<string, unknown>>) : {}))
    .catch(() => ({}));
  return workspaceLists;
}

/**
 * Starts adding the chunks of the workspace at `path` that the document has no link to yet (the
 * ones the sign-in page shares with it have).
 */
export function addWorkspaceChunks(path: string) {
  added = workspaceChunkLists().then((lists) => {
    const hrefs = lists[path];
    if (!Array.isArray(hrefs)) return;
    const present = new Set([...document.getElementsByTagName('link')].map((link) => link.href));
    const links = hrefs
      .filter((href): href is string => typeof href === 'string')
      .filter((href) => !present.has(new URL(href, document.baseURI).href))
      .map((href) => {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = href;
        return link;
      });
    return addFewPerTask(links);
  });
}

/** Settles once the chunks the page's HTML or a sign-in named are in the document (at once if none). */
export const pageChunksAdded = () => added;

/** What the sign-in pages are handed (lazyPages.tsx): the list on first focus, the links on submit. */
export const workspacePreload: WorkspacePreload = {
  prepare: () => void workspaceChunkLists(),
  start: addWorkspaceChunks,
};
