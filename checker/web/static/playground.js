/* Hexodic playground: builds a turn on the board and shows what the server
 * says of it (view.js).  This module is the page's actions and their wiring:
 * the board's clicks and keys, Check, Play on, the position, the game and
 * its stepper, Share, the address. */

import { h, problemNode, task } from "./calls.js";
import { cellOf, focusCell, geometry, neighbour, setRoving } from "./board.js";
import * as T from "./turn.js";
import { fromAddress, playedOn, remember, stepAt } from "./game.js";
import { share } from "./share.js";
import {
  $, EMBED, ask, checked, draw, el, gameFailed, kind, noVerdict, open, positionFailed, refresh, say, setKinds,
  setLegal, showVerdict, state, turnChanged, typingRead,
} from "./view.js";

// The view the address names (on opening the page, and on back/forward).
const restore = task(async function () {
  const { where, extra } = fromAddress(location.search);
  if (where.turns !== undefined) el.sheet.value = where.turns;
  if (where.position !== undefined) el.hpn.value = where.position;
  const a = await open(where, extra, where.turns !== undefined ? gameFailed : positionFailed);
  if (a && a.game && where.turns !== undefined) el.sheet.value = a.game.sheet;
  if (a) remember(a.address, true); // the address, written the canonical way
});

const loadPosition = task(async function (text) {
  if (await open({ position: text }, {}, positionFailed))
    el.validation.replaceChildren(h("p", { class: "verdict verdict-legal" }, h("span", { "aria-hidden": "true", text: "\u2713 " }), "Consistent position loaded."));
});

const loadStart = task(async function () {
  const a = await open({}, {}, positionFailed);
  if (a) say(`Start position loaded: ${a.position.to_move} to move.`);
});

// Every turn of the sheet checked in order by the server, in one request; then the turn it opens.
const loadGame = task(async function (text) {
  const a = await open({ turns: text }, { check: true }, gameFailed);
  if (a && a.game) el.sheet.value = a.game.sheet;
});

const step = (which) => task(() => state.view && state.view.game && open({ ...state.where, at: stepAt(state.view.game, which) }, { check: true }, gameFailed));

function activate(cell) {
  if (!state.view) return;
  const { turn, note } = T.choose(state.turn, cell, state.view.position.project, kind("shape-kind"), kind("echo-kind"));
  say(note || "Turn: " + (T.written(turn) || "(empty)"));
  if (turn === state.turn) return;
  state.turn = turn;
  turnChanged(false);
}

const doCheck = task(async function () {
  const text = el.htn.value.trim();
  if (!text || !state.view) {
    say("There is no turn to check: click the board or type a turn in HTN.");
    el.htn.focus();
    return;
  }
  setLegal(false);
  typingRead();
  let a;
  try {
    a = await ask(state.where, { turn: text, check: true });
  } catch (err) {
    state.verdict = null;
    el.play.disabled = true;
    el.result.replaceChildren(problemNode(err));
    say("The turn was not checked: " + err.message);
    return;
  }
  if (!a) return;
  state.turn = T.fromJson(a.turn.turn);
  state.typed = false;
  setKinds(state.turn);
  Object.assign(state, { verdict: a.verdict, verdictHtml: a.verdict_html, address: a.address, link: a.permalink });
  draw(a);
  showVerdict(state);
  el.play.disabled = !a.verdict.legal;
  say(checked(a.verdict));
  // on a narrow screen the verdict is below the turn's controls: bring its summary into view
  const r = ($("verdict-summary") || el.result).getBoundingClientRect();
  if (r.bottom > window.innerHeight || r.top < 0) $("result-heading").scrollIntoView({ block: "start" });
});

const playOn = task(async function () {
  const v = state.verdict;
  const before = state.view;
  if (!v || !v.legal) return;
  // Play on is disabled once the position is loaded: first move the focus to the board, where the next turn begins
  if (el.board.querySelector("g.cell[data-cell]")) state.focus = focusCell(el.board, state.focus);
  else $("turn-heading").focus();
  const next = before.game ? playedOn(before.game, v.turn) : null;
  const history = before.history === null ? null : before.history.concat([before.position.hpn]);
  const html = state.verdictHtml;
  const a = await open(next ? { turns: next.turns, at: next.at } : { position: v.outcome.hpn, history }, {}, positionFailed, true);
  if (!a) return;
  if (!next) {
    el.record.append(h("li", {}, h("code", { text: v.turn }), ` (${v.mover})`));
    el.recordEmpty.hidden = true;
  }
  showVerdict({ verdictHtml: html }, `Played ${v.turn}; these are its checks.`);
  const rest = next && next.replaced ? " The game's later turns were replaced." : "";
  say((v.outcome.game.over ? `Played ${v.turn}. ${v.outcome.game.message}` : `Played ${v.turn}. ${a.position.to_move} to move.`) + rest);
});

// User actions change the view, then the address records it.
const act = (fn) => task(async (...args) => {
  await fn(...args);
  if (state.view) remember(state.address, false);
});

function init() {
  for (const [key, id] of Object.entries({
    board: "board-view", posStatus: "position-status", posFacts: "position-facts", hpn: "hpn", htn: "htn",
    hint: "step-hint", parts: "turn-parts", result: "result", message: "message", validation: "validation",
    highlightNote: "highlight-note", record: "record", recordEmpty: "record-empty", check: "check", clear: "clear",
    legal: "legal", play: "play", sheet: "sheet", gameStatus: "game-status", shareUrl: "share-url", shareNote: "share-note",
  })) el[key] = $(id);
  for (const b of ["first", "prev", "next", "last"]) el["game-" + b] = $("game-" + b);
  for (const b of [el.check, el.clear, el.legal]) b.disabled = true;
  if (EMBED) document.body.classList.add("embed");
  // the Position panel is folded on narrow screens, open beside the board on wide ones
  if (window.matchMedia("(min-width: 881px)").matches) $("position-panel").open = true;

  el.board.addEventListener("click", (e) => {
    const cell = cellOf(e);
    if (!cell) return;
    state.focus = setRoving(el.board, cell);
    activate(cell);
  });
  el.board.addEventListener("keydown", (e) => {
    const cell = cellOf(e);
    if (!cell) return;
    if (e.key === "Enter" || e.key === " " || e.key === "Spacebar") {
      e.preventDefault();
      activate(cell);
    } else if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(e.key)) {
      e.preventDefault();
      state.focus = focusCell(el.board, neighbour(geometry(el.board), cell, e.key));
    }
  });
  el.board.addEventListener("focusin", (e) => {
    const cell = cellOf(e);
    if (cell) state.focus = setRoving(el.board, cell);
  });
  $("position-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = el.hpn.value.trim();
    if (text) act(loadPosition)(text);
    else say("Paste a position in HPN first.");
  });
  $("start").addEventListener("click", act(loadStart));
  $("turn-form").addEventListener("submit", (e) => {
    e.preventDefault();
    act(doCheck)();
  });
  $("game-form").addEventListener("submit", (e) => {
    e.preventDefault();
    act(loadGame)(el.sheet.value);
  });
  for (const b of ["first", "prev", "next", "last"]) el["game-" + b].addEventListener("click", act(step(b)));
  $("share").addEventListener("click", async () => {
    if (state.view) say(await share(state.link, document.baseURI, el.shareNote, el.shareUrl));
  });
  window.addEventListener("popstate", () => restore());
  el.clear.addEventListener("click", () => {
    if (!state.view) return;
    state.turn = T.fresh(state.view.position.project);
    state.verdict = null;
    el.play.disabled = true;
    noVerdict();
    say("Turn cleared.");
    turnChanged(false);
  });
  el.legal.addEventListener("click", () => {
    setLegal(!state.legal);
    if (!state.legal) say("Legal turns no longer shown.");
    refresh();
  });
  el.play.addEventListener("click", act(playOn));
  el.htn.addEventListener("input", () => turnChanged(true));
  for (const r of document.querySelectorAll('input[name="shape-kind"]'))
    r.addEventListener("change", () => {
      if (state.turn.shape) state.turn = { ...state.turn, shape: { kind: kind("shape-kind"), cell: state.turn.shape.cell } };
      turnChanged(false);
    });
  for (const r of document.querySelectorAll('input[name="echo-kind"]'))
    r.addEventListener("change", () => {
      const k = kind("echo-kind");
      if (k === "none") state.turn = { ...state.turn, echo: null };
      else if (state.turn.echo) state.turn = { ...state.turn, echo: { kind: k, cell: state.turn.echo.cell } };
      turnChanged(false);
    });
  restore();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
