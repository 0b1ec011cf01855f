/* Sharing: the permalink of what is shown (the server's view names it: the
 * game page at the open turn, the verdict page of the checked turn, or the
 * playground at the position), made absolute and copied. */

/** The link, relative to the page, as an absolute address. */
export function absolute(link, base) {
  return new URL(link, base).href;
}

/** Shows the link under the Share button and copies it; returns what to say. */
export async function share(link, base, note, anchor, clipboard = globalThis.navigator && navigator.clipboard) {
  const url = absolute(link, base);
  anchor.href = url;
  anchor.textContent = url;
  note.hidden = false;
  try {
    await clipboard.writeText(url);
    return "Link copied: " + url;
  } catch (e) {
    return "The browser did not let the page copy the link: select it below and copy it.";
  }
}
