/* The board: the server's drawing put on the page, the marks of the turn being
 * built, which cell a click or a key means, and moving between cells with the
 * keyboard.  The drawing (its cells, their order and their places) is the
 * server's; nothing here knows the board's shape but what the drawing shows. */

const CELL = "g.cell[data-cell]";

/** The cell a click or a key press inside the board is on, or null. */
export function cellOf(event) {
  const g = event.target && event.target.closest ? event.target.closest(CELL) : null;
  return g ? g.dataset.cell : null;
}

function cellNodes(board) {
  return [...board.querySelectorAll(CELL)];
}

function cellNode(board, name) {
  return board.querySelector(`g.cell[data-cell="${name}"]`);
}

/** Where each cell is drawn, in the drawing's order: [{name, x, y}] (the centres). */
export function geometry(board) {
  return cellNodes(board).map((g) => {
    const box = g.querySelector("polygon.hex").getBBox();
    return { name: g.dataset.cell, x: box.x + box.width / 2, y: box.y + box.height / 2 };
  });
}

/** The cell a key moves to from ``name``: Left/Right the one before or after in
 * the drawing's order, Home/End the first and last, Up/Down the nearest cell of
 * the row drawn above or below (up-left or down-right on a tie, so Up then Down
 * comes back).  ``cells`` are [{name, x, y}]. */
export function neighbour(cells, name, key) {
  const i = cells.findIndex((c) => c.name === name);
  if (i < 0) return name;
  if (key === "ArrowLeft") return cells[Math.max(0, i - 1)].name;
  if (key === "ArrowRight") return cells[Math.min(cells.length - 1, i + 1)].name;
  if (key === "Home") return cells[0].name;
  if (key === "End") return cells[cells.length - 1].name;
  if (key !== "ArrowUp" && key !== "ArrowDown") return name;
  const here = cells[i];
  const up = key === "ArrowUp";
  const rows = [...new Set(cells.map((c) => Math.round(c.y)))].sort((a, b) => a - b);
  const r = rows.indexOf(Math.round(here.y)) + (up ? -1 : 1);
  if (r < 0 || r >= rows.length) return name;
  let best = null;
  let bestD = Infinity;
  for (const c of cells) {
    if (Math.round(c.y) !== rows[r]) continue;
    // distances in whole units of the drawing (its coordinates are rounded); on a tie prefer the
    // left one going up, the right one going down
    const d = Math.round(Math.abs(c.x - here.x)) + (up ? (c.x < here.x ? 0 : 0.5) : c.x > here.x ? 0 : 0.5);
    if (d < bestD) {
      bestD = d;
      best = c.name;
    }
  }
  return best || name;
}

/** The board's one tab stop is on ``name`` (or the first cell when it is not drawn). */
export function setRoving(board, name) {
  const nodes = cellNodes(board);
  if (!nodes.some((g) => g.dataset.cell === name) && nodes.length) name = nodes[Math.floor(nodes.length / 2)].dataset.cell;
  for (const g of nodes) g.setAttribute("tabindex", g.dataset.cell === name ? "0" : "-1");
  return name;
}

export function focusCell(board, name) {
  const roving = setRoving(board, name);
  const g = cellNode(board, roving);
  if (g) g.focus();
  return roving;
}

/** A cell's accessible name: what it shows first (its Tier, its Stone, its
 * name: "0 A c3"), then in words, what its highlight means in this drawing
 * and what the turn chose there. A cell is a button that takes the turn's
 * next step, not an on/off toggle. */
export function cellLabel(shown, data, shows, roles) {
  const parts = [shown.join(" ") || data.cell, "Tier " + data.tier, data.stone === "empty" ? "no Stone" : data.stone + "'s Stone"];
  if (data.locked === "true") parts.push("locked");
  if (data.highlight === "true") parts.push(shows === "highlight" ? "a legal choice" : "named by a failed check");
  for (const r of roles) parts.push(r[1]);
  return parts.join(", ");
}

/** The page says in words what the drawing's header, caption and legend say,
 * so the drawing is cropped to its cells: on a phone they then use the width. */
function fitToBoard(svg) {
  const cells = svg.querySelector("#board");
  if (!cells || !cells.getBBox) return;
  const b = cells.getBBox();
  if (!b.width || !b.height) return;
  const m = 3;
  const box = [b.x - m, b.y - m, b.width + 2 * m, b.height + 2 * m].map((v) => +v.toFixed(1));
  svg.setAttribute("viewBox", box.join(" "));
  svg.setAttribute("width", String(box[2]));
  svg.setAttribute("height", String(box[3]));
  svg.classList.add("board-fitted");
}

/** Puts the server's SVG on the page as a group of cell buttons; false when it does not read. */
export function showBoard(board, text, shows, focus) {
  const root = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  if (!root || root.localName !== "svg") return false;
  const svg = document.importNode(root, true);
  // cells inside are interactive, so the drawing is a group, not an image
  svg.setAttribute("role", "group");
  svg.removeAttribute("aria-labelledby");
  svg.setAttribute("aria-label", `Board: ${svg.querySelectorAll(CELL).length} cells`);
  svg.setAttribute("focusable", "false");
  svg.classList.add("board-svg");
  const hadFocus = board.contains(document.activeElement);
  for (const g of svg.querySelectorAll(CELL)) {
    g.setAttribute("role", "button");
    g.setAttribute("tabindex", "-1");
    // the name comes from aria-label (cellLabel); the drawing's <title> would be
    // read into the cell's text too, its words run together ("0d4")
    g.querySelectorAll(":scope > title").forEach((t) => t.remove());
    g.querySelectorAll(":scope > text").forEach((t) => t.before(document.createTextNode(" ")));
  }
  board.replaceChildren(svg);
  fitToBoard(svg);
  board.dataset.shows = shows;
  const roving = setRoving(board, focus);
  if (hadFocus) focusCell(board, roving);
  return true;
}

function ring(ns, hex, cx, cy) {
  const node = document.createElementNS(ns, "polygon");
  node.setAttribute("class", "pg-tag pg-ring");
  node.setAttribute("aria-hidden", "true");
  const points = (hex.getAttribute("points") || "").trim().split(/\s+/).map((pt) => {
    const [x, y] = pt.split(",").map(Number);
    return `${(cx + (x - cx) * 0.84).toFixed(1)},${(cy + (y - cy) * 0.84).toFixed(1)}`;
  });
  node.setAttribute("points", points.join(" "));
  return node;
}

function tag(ns, label, cx, cy) {
  const node = document.createElementNS(ns, "g");
  node.setAttribute("class", "pg-tag");
  node.setAttribute("aria-hidden", "true");
  const w = 8 + 7 * label.length;
  const rect = document.createElementNS(ns, "rect");
  for (const [k, v] of [["x", (cx - 23).toFixed(1)], ["y", (cy - 6.5).toFixed(1)], ["width", w], ["height", 14], ["rx", 3]])
    rect.setAttribute(k, String(v));
  const text = document.createElementNS(ns, "text");
  for (const [k, v] of [["x", (cx - 23 + w / 2).toFixed(1)], ["y", (cy + 4).toFixed(1)], ["text-anchor", "middle"], ["font-size", 11], ["font-weight", "bold"]])
    text.setAttribute(k, String(v));
  text.textContent = label;
  node.append(rect, text);
  return node;
}

/** The marks of the turn being built: ``roles`` maps a cell to its
 * [letter, words] pairs; each such cell gets a dashed ring and a tag with
 * the letters (so a choice is not told by colour alone) and its label says it. */
export function markSelection(board, roles) {
  const svg = board.querySelector("svg");
  if (!svg) return;
  const ns = svg.namespaceURI;
  const shows = board.dataset.shows;
  for (const g of cellNodes(board)) {
    g.querySelectorAll(".pg-tag").forEach((t) => t.remove());
    const mine = roles.get(g.dataset.cell) || [];
    g.classList.toggle("pg-selected", mine.length > 0);
    const shown = [...g.querySelectorAll("text")].map((t) => t.textContent.trim()).filter(Boolean);
    g.setAttribute("aria-label", cellLabel(shown, g.dataset, shows, mine));
    // a drawn verdict carries the server's own marks of the turn
    if (!mine.length || shows === "turn") continue;
    const hex = g.querySelector("polygon.hex");
    const box = hex.getBBox();
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    hex.after(ring(ns, hex, cx, cy)); // under any highlight outline
    g.append(tag(ns, mine.map((r) => r[0]).join(""), cx, cy));
  }
}
