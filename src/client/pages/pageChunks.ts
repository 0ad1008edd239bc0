// A signed-in workspace's HTML names its page's chunks inside <template id="page-chunks">, where
// they are inert (vite.config.ts, routePages; routeModules.ts says why). The entry adds them to the
// document a few per task (main.tsx), so the page's code downloads while the session is checked,
// and a workspace page waits for that before it asks for its code (lazyPages.tsx). Vite's preload
// helper then finds the links in place, instead of adding some 40 in one task while React renders:
// each added link costs the browser about a millisecond of main thread.

/** Links added per task. */
const LINKS_PER_TASK = 6;

let added: Promise<void> = Promise.resolve();

/** Starts adding the chunks the page's HTML names, if any. */
export function addPageChunks() {
  const template = document.getElementById('page-chunks');
  if (!(template instanceof HTMLTemplateElement)) return;
  const links = [...template.content.children];
  template.remove();
  added = new Promise((resolve) => {
    const addSome = () => {
      document.head.append(...links.splice(0, LINKS_PER_TASK));
      if (links.length > 0) setTimeout(addSome);
      else resolve();
    };
    setTimeout(addSome);
  });
}

/** Settles once the chunks the page's HTML names are in the document (at once if it names none). */
export const pageChunksAdded = () => added;
