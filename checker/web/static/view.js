/* The view: the page's state and what the server says of it, shown.  Each
 * change asks the server for its view (POST v1/render/view, calls.js), which
 * reads every text, judges, draws the board and writes the verdict with the
 * /check page's own template; here the answer is put on the page. */

import { ApiError, VIEW, busy, call, h, names, problemNode, task } from "./calls.js";
import { markSelection, showBoard } from "./board.js";
import * as T from "./turn.js";
import { showRecord, stepper, whereOf } from "./game.js";

export const EMBED = new URLSearchParams(location.search).get("embed") === "1";
export const TYPING_MS = 250; // a typed turn is read once typing pauses
export const $ = (id) => document.getElementById(id);
export const el = {};
export const state = {
  view: null, // the server's last view
  where: {}, // what it is a view of: {position, history} or a game's {turns, at}
  turn: T.fresh(null), // the turn being built
  typed: false, // the turn's text was typed: the server reads it
  verdict: null, // the last verdict, while it matches the turn
  verdictHtml: null,
  legal: false, // "Show legal turns" is on
  focus: null, // the board's roving tab stop
  address: "", // the address of the last view asked for
  link: "", // and the permalink of what it shows
  seq: 0,
  timer: null,
};

export const say = (text) => (el.message.textContent = text);
export const kind = (name) => document.querySelector(`input[name="${name}"]:checked`).value;
export const noVerdict = () => el.result.replaceChildren(h("p", { class: "help", text: "No turn checked yet." }));

export function setKinds(turn) {
  for (const [name, part] of [["shape-kind", turn.shape], ["echo-kind", turn.echo]]) {
    const input = part && document.querySelector(`input[name="${name}"][value="${part.kind}"]`);
    if (input) input.checked = true;
  }
}

export function setLegal(on) {
  state.legal = on;
  el.legal.setAttribute("aria-pressed", on ? "true" : "false");
}

/** The server's view of ``where`` (and ``extra``); null when a later view was asked for meanwhile. */
export async function ask(where, extra) {
  const seq = ++state.seq;
  el.board.setAttribute("aria-busy", "true");
  try {
    const a = await call(VIEW, { ...where, ...extra, embed: EMBED });
    return seq === state.seq ? a : null;
  } finally {
    if (seq === state.seq) el.board.removeAttribute("aria-busy");
  }
}

// The turn so far in words and on the board.
export function turnShown() {
  const a = state.view;
  if (!a) return;
  el.parts.replaceChildren(...T.parts(state.turn, a.position.steps).map(([k, v]) => h("li", {}, h("span", { class: "step", text: k + ": " }), v)));
  el.hint.textContent = T.hint(state.turn, a.position, kind("shape-kind"), kind("echo-kind"));
  markSelection(el.board, T.roles(state.turn));
}

export function draw(a) {
  state.view = a;
  if (!showBoard(el.board, a.board, a.shows, state.focus))
    el.board.replaceChildren(problemNode(new ApiError("The board drawing could not be read.")));
  el.posStatus.innerHTML = a.position.status_html;
  el.posFacts.innerHTML = a.position.facts_html;
  el.hpn.value = a.position.hpn;
  el.highlightNote.hidden = !a.legal;
  el.highlightNote.textContent = a.legal ? a.legal.note : "";
  const g = a.game;
  const off = stepper(g);
  for (const b of ["first", "prev", "next", "last"]) el["game-" + b].disabled = off[b];
  if (g) {
    showRecord(el.record, g, h);
    el.recordEmpty.hidden = g.turns.length > 0;
    el.gameStatus.textContent = g.message;
  } else el.gameStatus.textContent = "No game: a pasted position's earlier turns are not known.";
  turnShown();
}

export function showVerdict(a, note) {
  el.result.innerHTML = a.verdictHtml;
  if (note) el.result.prepend(h("p", { class: "played-note", text: note }));
}

export function checked(v) {
  return v.legal ? `Checked ${v.turn}: legal.` : `Checked ${v.turn}: illegal; failed: ${T.listShort(v.violations)}.`;
}

// A view asked for by the user: a new position or game, or a turn of it checked.
export function arrive(a) {
  state.where = whereOf(a);
  state.turn = a.turn ? T.fromJson(a.turn.turn) : T.fresh(a.position.project);
  state.typed = false;
  el.htn.value = a.turn ? a.turn.htn : T.written(state.turn);
  setKinds(state.turn);
  state.verdict = a.verdict;
  state.verdictHtml = a.verdict_html;
  state.address = a.address;
  state.link = a.permalink;
  el.play.disabled = !(a.verdict && a.verdict.legal);
  for (const b of [el.check, el.clear, el.legal]) b.disabled = false;
  draw(a);
  if (a.verdict) {
    showVerdict(state);
    say(checked(a.verdict));
  } else noVerdict();
}

export function resetRecord() {
  el.record.replaceChildren();
  el.recordEmpty.hidden = false;
}

/** Opens ``where``: the position or game, its turn checked when ``extra`` asks; ``fail`` shows a problem.
 * The turns played here are forgotten unless ``keep`` (Play on keeps them). */
export const open = task(async function (where, extra, fail, keep = false) {
  setLegal(false);
  let a;
  try {
    a = await ask(where, extra);
  } catch (err) {
    if (names(err, "turn")) {
      // the address's turn does not read: the position without it, and the problem where the verdict goes
      if ((a = await open(where, {}, fail))) el.result.replaceChildren(problemNode(err));
      return a;
    }
    fail(err);
    return null;
  }
  if (!a) return null;
  if (!keep && (!a.game || !a.game.turns.length)) resetRecord();
  arrive(a);
  if (!a.verdict) {
    const g = a.game;
    if (g && g.turns.length) say(g.at > g.turns.length ? "The position after the last turn." : `Turn ${g.at}: the position before it.`);
    else if (a.position.project === "skip") say("The capture cooldown leaves no legal Place: this turn's Project and Shape are skipped.");
    else say(`Position loaded: ${a.position.to_move} to move.`);
  }
  return a;
});

export const positionFailed = (err) => {
  el.validation.replaceChildren(problemNode(err));
  say("The position was not loaded: " + err.message);
};
export const gameFailed = (err) => {
  el.gameStatus.replaceChildren(problemNode(err));
  say("The game was not loaded: " + err.message);
};

// After a change of the turn by the page (not a user's action): the server reads and draws it.
export const refresh = task(async function () {
  const text = el.htn.value.trim();
  const extra = { legal: state.legal };
  if (state.typed ? text : T.complete(state.turn)) extra.turn = state.typed ? text : T.written(state.turn);
  else if (state.turn.from) extra.from = state.turn.from;
  if (state.verdict && extra.turn) extra.check = true; // the drawing keeps the verdict while it matches
  let a;
  try {
    a = await ask(state.where, extra);
  } catch (err) {
    if (names(err, "turn")) el.hint.textContent = "The typed turn does not parse yet; Check says where.";
    else if (state.legal) {
      el.highlightNote.hidden = false;
      el.highlightNote.replaceChildren(problemNode(err));
    } else say(err.message);
    return;
  }
  if (!a) return;
  if (state.typed) {
    state.turn = a.turn ? T.fromJson(a.turn.turn) : T.fresh(a.position.project);
    setKinds(state.turn);
  }
  draw(a);
  if (a.legal) say(T.shortNote(a.legal.note, a.legal.cells.length));
});

/** A typed turn's pending read is dropped: the request about to be made reads the text itself (a read
 * made after it would answer later and leave its answer unshown). */
export function typingRead() {
  if (state.timer !== null) {
    clearTimeout(state.timer);
    busy(-1);
  }
  state.timer = null;
}

// After every change of the turn: the text field, the words, a verdict that no longer matches, the board.
export function turnChanged(typed) {
  state.typed = typed;
  if (!typed) el.htn.value = T.written(state.turn);
  if (state.verdict) {
    state.verdict = null;
    el.play.disabled = true;
    if (!el.result.querySelector(".stale-note") && el.result.firstChild)
      el.result.prepend(h("p", { class: "stale-note", text: "The turn has changed since this check: press Check again." }));
  }
  turnShown();
  typingRead();
  if (!typed) return refresh();
  busy(1); // the page is busy until the typed turn is read
  state.timer = setTimeout(() => {
    state.timer = null;
    busy(-1);
    refresh();
  }, TYPING_MS);
}

