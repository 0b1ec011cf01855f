// The game's pure parts (checker/web/static/game.js): the view an address names, the stepper, Play
// on, the record and the address bar.  node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";

import { fromAddress, playedOn, recordItems, remember, stepAt, stepper, whereOf } from "../../checker/web/static/game.js";

const row = (n, htn, status) => ({ n, htn, mover: n % 2 ? "A" : "B", status });
const GAME = { turns: [row(1, "c3 +d4", "legal"), row(2, "e5 +d4", "legal"), row(3, "e5 +d5", "illegal")], at: 2, last: 3 };

test("the address names a game, a position or the start, and the turn to check", () => {
  assert.deepEqual(fromAddress("?turns=c3+%2Bd4;e5+%2Bd4&at=2"), { where: { turns: "c3 +d4;e5 +d4", at: 2 }, extra: { check: true } });
  assert.deepEqual(fromAddress("?turns=c3+%2Bd4&at=x&turn=c4"), { where: { turns: "c3 +d4" }, extra: { turn: "c4", check: true } });
  assert.deepEqual(fromAddress("?position=P&turn=c3+%2Bd4"), { where: { position: "P" }, extra: { turn: "c3 +d4", check: true } });
  assert.deepEqual(fromAddress("?position=P"), { where: { position: "P" }, extra: {} });
  assert.deepEqual(fromAddress(""), { where: {}, extra: {} });
});

test("a view's next requests are of its game, or of its position and history", () => {
  assert.deepEqual(whereOf({ game: GAME, position: { hpn: "P" }, history: ["S"] }), { turns: ["c3 +d4", "e5 +d4", "e5 +d5"], at: 2 });
  assert.deepEqual(whereOf({ game: { ...GAME, turns: [] }, position: { hpn: "S" }, history: [] }), { position: "S", history: [] });
  assert.deepEqual(whereOf({ game: null, position: { hpn: "P" }, history: null }), { position: "P", history: null });
});

test("the stepper stays between the first turn and the last stop", () => {
  assert.deepEqual(["first", "prev", "next", "last"].map((w) => stepAt(GAME, w)), [1, 1, 3, 3]);
  assert.equal(stepAt({ ...GAME, at: 3 }, "next"), 3);
  assert.deepEqual(stepper(GAME), { first: false, prev: false, next: false, last: false });
  assert.deepEqual(stepper({ ...GAME, at: 1 }), { first: true, prev: true, next: false, last: false });
  assert.deepEqual(stepper({ ...GAME, at: 3 }), { first: false, prev: false, next: true, last: true });
  assert.deepEqual(stepper(null), { first: true, prev: true, next: true, last: true });
});

test("Play on follows the game on its own turn, and otherwise replaces the rest", () => {
  assert.deepEqual(playedOn({ ...GAME, at: 1 }, "c3 +d4"), { turns: ["c3 +d4", "e5 +d4", "e5 +d5"], at: 2, replaced: false });
  assert.deepEqual(playedOn({ ...GAME, at: 2 }, "e4 +d4"), { turns: ["c3 +d4", "e4 +d4"], at: 3, replaced: true });
  // at the last stop (the illegal turn) the played turn takes its place
  assert.deepEqual(playedOn({ ...GAME, at: 3 }, "c4 +d4"), { turns: ["c3 +d4", "e5 +d4", "c4 +d4"], at: 4, replaced: true });
  // from the start (a game with no turn yet): the first turn of a new game
  assert.deepEqual(playedOn({ turns: [], at: 1, last: 1 }, "c3 +d4"), { turns: ["c3 +d4"], at: 2, replaced: false });
});

test("the record marks each turn with a symbol and a word, and the open one", () => {
  const items = recordItems(GAME);
  assert.deepEqual(items.map((i) => [i.mark.trim(), i.word, i.current]), [["\u2713", "legal", false], ["\u2713", "legal", true], ["\u2717", "illegal", false]]);
});

test("the address bar: pushed or replaced, never twice the same, one leading slash", () => {
  const calls = [];
  const hist = { pushState: (s, t, u) => calls.push(["push", u]), replaceState: (s, t, u) => calls.push(["replace", u]) };
  remember("?position=P", false, { pathname: "/", search: "" }, hist);
  remember("?position=P", false, { pathname: "/", search: "?position=P" }, hist);
  remember("", true, { pathname: "//", search: "?x" }, hist);
  assert.deepEqual(calls, [["push", "/?position=P"], ["replace", "/"]]);
});
