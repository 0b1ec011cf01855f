/* The turn being built by clicking: which part a click chooses, the text a
 * person would type for it, its marks and the words that describe it.  No
 * rule is decided here: what the mover's Project is (a Place, a Move or the
 * cooldown skip), the step labels and whether a text reads are the server's
 * (its view's ``position`` and ``turn``).
 *
 * A turn is {project, from, shape, echo}: project null, {kind: "place", cell},
 * {kind: "move", from, to} or {kind: "skip"}; from a Move's stone while its
 * destination is awaited; shape {kind: "raise" | "lower", cell}; echo
 * {kind: "capture" | "lock", cell}. */

/** A turn with nothing chosen yet (the skip already made when the server says the Project is skipped). */
export function fresh(project) {
  return { project: project === "skip" ? { kind: "skip" } : null, from: null, shape: null, echo: null };
}

/** The turn after a click on ``cell``: {turn, note} (note: what to say, when the click did not add a part).
 * ``project`` is the server's word for the mover's Project; ``shapeKind`` and ``echoKind`` the chosen kinds. */
export function choose(turn, cell, project, shapeKind, echoKind) {
  const t = { ...turn };
  if (!t.project) {
    if (project !== "move") t.project = { kind: "place", cell };
    else if (!t.from) t.from = cell;
    else if (t.from === cell) return { turn: { ...t, from: null }, note: "Move cancelled." };
    else {
      t.project = { kind: "move", from: t.from, to: cell };
      t.from = null;
    }
  } else if (!t.shape && t.project.kind !== "skip") {
    t.shape = { kind: shapeKind, cell };
  } else if (echoKind !== "none") {
    t.echo = { kind: echoKind, cell };
  } else {
    return {
      turn,
      note: "The turn already has its Project and Shape: pick an Echo kind to add an Echo, or Clear turn to start over.",
    };
  }
  return { turn: t, note: null };
}

/** The text a person would type for the turn (a Move still awaiting its destination ends with "-"). */
export function written(turn) {
  const parts = [];
  const p = turn.project;
  if (p) parts.push(p.kind === "place" ? p.cell : p.kind === "move" ? p.from + "-" + p.to : "skip");
  else if (turn.from) parts.push(turn.from + "-");
  if (turn.shape) parts.push((turn.shape.kind === "raise" ? "+" : "-") + turn.shape.cell);
  if (turn.echo) parts.push((turn.echo.kind === "capture" ? "*" : "#") + turn.echo.cell);
  return parts.join(" ");
}

/** Whether the turn has a Project: its text then reads as a turn. */
export function complete(turn) {
  return !!turn.project;
}

/** The turn the server read ({project, shape, echo}, the rules reference §11). */
export function fromJson(json) {
  const p = json.project;
  const project = p.kind === "move" ? { kind: "move", from: p.from, to: p.to } : p.kind === "place" ? { kind: "place", cell: p.cell } : { kind: "skip" };
  const part = (s) => (s ? { kind: s.kind, cell: s.cell } : null);
  return { project, from: null, shape: part(json.shape), echo: part(json.echo) };
}

/** Each cell the turn chose: cell → [[letter, words]]. */
export function roles(turn) {
  const out = new Map();
  const add = (cell, letter, words) => out.set(cell, [...(out.get(cell) || []), [letter, words]]);
  const p = turn.project;
  if (p && p.kind === "place") add(p.cell, "P", "chosen: Place");
  if (p && p.kind === "move") {
    add(p.from, "F", "chosen: Move from");
    add(p.to, "T", "chosen: Move to");
  }
  if (turn.from) add(turn.from, "F", "chosen: Move from");
  if (turn.shape) add(turn.shape.cell, turn.shape.kind === "raise" ? "+" : "\u2212", "chosen: Shape " + turn.shape.kind);
  if (turn.echo)
    add(turn.echo.cell, turn.echo.kind === "capture" ? "*" : "#", turn.echo.kind === "capture" ? "chosen: Echo-Capture" : "chosen: Echo-Lock");
  return out;
}

/** The turn so far, step by step: [[label, words]]; ``steps`` are the server's step labels. */
export function parts(turn, steps) {
  const p = turn.project;
  let first;
  if (p && p.kind === "place") first = "Place on " + p.cell;
  else if (p && p.kind === "move") first = "Move " + p.from + " to " + p.to;
  else if (p) first = "skipped (capture cooldown)";
  else if (turn.from) first = "Move from " + turn.from + " to … (choose the destination)";
  else first = "not chosen yet";
  const shape = turn.shape ? turn.shape.kind + " " + turn.shape.cell : p && p.kind === "skip" ? "skipped with the Project" : "none";
  const echo = turn.echo ? (turn.echo.kind === "capture" ? "Echo-Capture of " : "Echo-Lock of ") + turn.echo.cell : "none";
  return [
    [steps.project, first],
    [steps.shape, shape],
    [steps.echo, echo],
  ];
}

/** What to do next, in one line.  ``position`` is the view's (to_move, reserve, project, game_over, message). */
export function hint(turn, position, shapeKind, echoKind) {
  const p = turn.project;
  if (position.game_over) return position.message + " No turn is legal now: load another position or the start position.";
  if (!p && turn.from) return `Move from ${turn.from}: choose the destination cell (choose ${turn.from} again to cancel).`;
  if (!p && position.project !== "move")
    return `${position.to_move} to move, ${position.reserve} in reserve: choose an empty cell to Place on.`;
  if (!p) return `${position.to_move} to move with an empty reserve: choose a Stone to Move, then its destination.`;
  if (!turn.shape && p.kind !== "skip")
    return `Next: choose the cell to ${shapeKind} (the Shape; Show legal turns lights where it may go). Or Check now.`;
  if (echoKind !== "none") return `Next: choose the ${echoKind === "capture" ? "Echo-Capture target" : "Echo-Lock cell"}. Or Check now.`;
  return "The turn is ready: Check it, pick an Echo kind to add an Echo, or Clear turn.";
}

/** How many rule ids the status line shows before "and N more". */
export const SHOWN_IDS = 3;

/** At most SHOWN_IDS rule ids, then how many more: the status line stays one short line. */
export function listShort(ids) {
  const shown = ids.slice(0, SHOWN_IDS).join(", ");
  return ids.length > SHOWN_IDS ? `${shown} and ${ids.length - SHOWN_IDS} more` : shown;
}

/** The server's note on the legal choices, cut to its first sentence when long (for the status line). */
export function shortNote(note, cells) {
  return note.length > 160 ? note.slice(0, note.indexOf(".") + 1) + ` ${cells} cells highlighted.` : note;
}
