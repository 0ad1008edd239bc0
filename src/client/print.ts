// Printing a plain page (a record, a day's schedule): the page's HTML in a new window, then the
// browser's print dialog, so the dashboard itself is not printed. Every text put in the page goes
// through escapeHtml.

/** `text` safe to put in HTML as text or as a quoted attribute value. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * Opens a window titled `title` with `bodyHtml` (already escaped) as its body and prints it;
 * false when the browser blocked the window (the caller says so).
 */
export function printPage(title: string, bodyHtml: string): boolean {
  const win = window.open('', '_blank', 'width=800,height=900');
  if (!win) return false;
  win.document.title = title;
  win.document.body.innerHTML = bodyHtml;
  win.focus();
  win.print();
  return true;
}
