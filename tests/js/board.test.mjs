// The board's keyboard moves (checker/web/static/board.js), on a drawing's geometry: the cells'
// centres in the drawing's order, as the server draws them (rows of hexagons, each row offset by half
// a cell; the coordinates rounded to a tenth, as in the SVG).  node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";

import { cellLabel, neighbour } from "../../checker/web/static/board.js";

// A drawing of three rows (4, 5 and 4 cells), 52 units apart across and 45 down, as the SVG has them
// (its float32 boxes make centres a few hundredths off: 148.05 against 200.0 about 174.0).
const CELLS = [
  ...["a1", "a2", "a3", "a4"].map((name, i) => ({ name, x: 122.1 + 52 * i, y: 64 })),
  ...["b1", "b2", "b3", "b4", "b5"].map((name, i) => ({ name, x: 96.05 + 52 * i + (i === 1 ? 0.02 : 0), y: 109.01 })),
  ...["c1", "c2", "c3", "c4"].map((name, i) => ({ name, x: 122.1 + 52 * i, y: 154 })),
];

test("left and right follow the drawing's order; Home and End its ends", () => {
  assert.equal(neighbour(CELLS, "a4", "ArrowRight"), "b1");
  assert.equal(neighbour(CELLS, "b1", "ArrowLeft"), "a4");
  assert.equal(neighbour(CELLS, "a1", "ArrowLeft"), "a1");
  assert.equal(neighbour(CELLS, "b3", "Home"), "a1");
  assert.equal(neighbour(CELLS, "b3", "End"), "c4");
});

test("up and down go to the nearest cell of the row drawn above or below: up-left, down-right on a tie", () => {
  assert.equal(neighbour(CELLS, "b3", "ArrowUp"), "a2");
  assert.equal(neighbour(CELLS, "a2", "ArrowDown"), "b3");
  assert.equal(neighbour(CELLS, "b2", "ArrowUp"), "a1");
  assert.equal(neighbour(CELLS, "b3", "ArrowDown"), "c3");
  assert.equal(neighbour(CELLS, "c3", "ArrowUp"), "b3");
  assert.equal(neighbour(CELLS, "c2", "ArrowUp"), "b2");
  assert.equal(neighbour(CELLS, "b1", "ArrowUp"), "a1");
  assert.equal(neighbour(CELLS, "a3", "ArrowUp"), "a3"); // no row above
  assert.equal(neighbour(CELLS, "zz", "ArrowUp"), "zz");
});

test("a cell's name begins with what it shows, then says it and what the turn chose", () => {
  const data = { cell: "c3", tier: "0", stone: "A", locked: "false", highlight: "true" };
  assert.equal(cellLabel(["0", "A", "c3"], data, "turn", []), "0 A c3, Tier 0, A's Stone, named by a failed check");
  assert.equal(
    cellLabel(["1", "d4"], { ...data, tier: "1", stone: "empty", locked: "true" }, "highlight", [["+", "chosen: Shape raise"]]),
    "1 d4, Tier 1, no Stone, locked, a legal choice, chosen: Shape raise",
  );
});
