// The turn built by clicking (checker/web/static/turn.js): which part a click chooses, the text a
// person would type for it, its marks and its words.  node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";

import * as T from "../../checker/web/static/turn.js";

const STEPS = { project: "Step 1/2: Place", shape: "Step 2/2: Shape", echo: "Step 3: Echo (optional)" };
const START = { to_move: "A", reserve: 7, project: "place", game_over: false, message: "" };

function clicks(cells, project, shapeKind = "raise", echoKind = "none") {
  let turn = T.fresh(project);
  const notes = [];
  for (const cell of cells) {
    const next = T.choose(turn, cell, project, shapeKind, echoKind);
    if (next.note) notes.push(next.note);
    turn = next.turn;
  }
  return { turn, notes };
}

test("a Place, then its Shape, then an Echo when a kind is chosen", () => {
  assert.equal(T.written(clicks(["c3"], "place").turn), "c3");
  assert.equal(T.written(clicks(["c3", "d4"], "place").turn), "c3 +d4");
  assert.equal(T.written(clicks(["c3", "d4"], "place", "lower").turn), "c3 -d4");
  assert.equal(T.written(clicks(["c3", "d4", "e5"], "place", "raise", "capture").turn), "c3 +d4 *e5");
  assert.equal(T.written(clicks(["c3", "d4", "e5"], "place", "raise", "lock").turn), "c3 +d4 #e5");
});

test("a third click without an Echo kind adds nothing and says why", () => {
  const { turn, notes } = clicks(["c3", "d4", "e5"], "place");
  assert.equal(T.written(turn), "c3 +d4");
  assert.match(notes[0], /already has its Project and Shape/);
});

test("a Move is its stone, then its destination; the stone again cancels it", () => {
  const pending = clicks(["b3"], "move").turn;
  assert.equal(pending.from, "b3");
  assert.equal(T.written(pending), "b3-");
  assert.equal(T.complete(pending), false);
  assert.equal(T.written(clicks(["b3", "c3", "c4"], "move").turn), "b3-c3 +c4");
  const { turn, notes } = clicks(["b3", "b3"], "move");
  assert.deepEqual([turn.from, turn.project, notes], [null, null, ["Move cancelled."]]);
});

test("the cooldown skip is made before any click, and takes no Shape", () => {
  const skip = T.fresh("skip");
  assert.equal(T.written(skip), "skip");
  assert.equal(T.written(clicks(["e5"], "skip", "raise", "capture").turn), "skip *e5");
  assert.deepEqual(T.parts(skip, STEPS)[1], ["Step 2/2: Shape", "skipped with the Project"]);
});

test("the server's JSON turn becomes the turn built, and its marks", () => {
  const turn = T.fromJson({ project: { kind: "move", from: "b3", to: "c3" }, shape: { kind: "lower", cell: "c3" }, echo: null });
  assert.equal(T.written(turn), "b3-c3 -c3");
  const roles = T.roles(turn);
  assert.deepEqual(roles.get("b3"), [["F", "chosen: Move from"]]);
  assert.deepEqual(roles.get("c3"), [["T", "chosen: Move to"], ["\u2212", "chosen: Shape lower"]]);
  assert.equal(roles.size, 2);
});

test("the parts use the server's step labels", () => {
  const turn = clicks(["c3", "d4"], "place").turn;
  assert.deepEqual(T.parts(turn, STEPS), [
    ["Step 1/2: Place", "Place on c3"],
    ["Step 2/2: Shape", "raise d4"],
    ["Step 3: Echo (optional)", "none"],
  ]);
  assert.deepEqual(T.parts(T.fresh("move"), { ...STEPS, project: "Step 1/2: Move" })[0], ["Step 1/2: Move", "not chosen yet"]);
});

test("the hint follows the turn and the server's word on the position", () => {
  assert.equal(T.hint(T.fresh("place"), START, "raise", "none"), "A to move, 7 in reserve: choose an empty cell to Place on.");
  const move = { ...START, reserve: 0, project: "move", to_move: "B" };
  assert.match(T.hint(T.fresh("move"), move, "raise", "none"), /^B to move with an empty reserve/);
  assert.match(T.hint(clicks(["b3"], "move").turn, move, "raise", "none"), /^Move from b3: choose the destination/);
  assert.match(T.hint(clicks(["c3"], "place").turn, START, "lower", "none"), /^Next: choose the cell to lower/);
  assert.match(T.hint(clicks(["c3", "d4"], "place").turn, START, "raise", "lock"), /Echo-Lock cell/);
  assert.match(T.hint(clicks(["c3", "d4"], "place").turn, START, "raise", "none"), /^The turn is ready/);
  const over = { ...START, game_over: true, message: "The game is over: A wins." };
  assert.match(T.hint(T.fresh("place"), over, "raise", "none"), /^The game is over: A wins\. No turn is legal now/);
});

test("the status line's short forms", () => {
  assert.equal(T.listShort(["a", "b"]), "a, b");
  assert.equal(T.listShort(["a", "b", "c", "d", "e"]), "a, b, c and 2 more");
  assert.equal(T.shortNote("Short. Note.", 3), "Short. Note.");
  assert.equal(T.shortNote("First sentence." + " x".repeat(100), 36), "First sentence. 36 cells highlighted.");
});
