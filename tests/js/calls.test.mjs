// Calls to the service and its problems (checker/web/static/calls.js, share.js), with a fetch of the
// test's own.  node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";

import { ApiError, VIEW, call, names, problemItems, problemLine } from "../../checker/web/static/calls.js";
import { absolute } from "../../checker/web/static/share.js";

const PROBLEM = {
  type: "urn:hexodic:checker:problem:invalid-body",
  title: "The body does not match the schema",
  status: 422,
  detail: "turns: Score sheet: line 2, column 4 ('e5 +d9'): '+d9': d9 is not a cell.",
  errors: [{ path: "turns", message: "Score sheet: line 2, column 4 ('e5 +d9'): '+d9': d9 is not a cell" }],
};

function answer(status, body, type = "application/json") {
  return async (url, opts) => ({
    ok: status < 400,
    status,
    headers: new Map([["Content-Type", type]]),
    json: async () => body,
    sent: { url, opts },
  });
}

test("the view is asked for relative to the page, as JSON", async () => {
  let sent;
  const fetcher = async (url, opts) => {
    sent = { url, opts };
    return answer(200, { shows: "plain" })(url, opts);
  };
  assert.deepEqual(await call(VIEW, { turns: "c3 +d4" }, fetcher), { shows: "plain" });
  assert.equal(sent.url, "v1/render/view");
  assert.equal(sent.opts.method, "POST");
  assert.equal(sent.opts.headers["Content-Type"], "application/json");
  assert.deepEqual(JSON.parse(sent.opts.body), { turns: "c3 +d4" });
});

test("a problem answer is an ApiError that says the server's words and names its field", async () => {
  const err = await call(VIEW, {}, answer(422, PROBLEM, "application/problem+json")).catch((e) => e);
  assert.ok(err instanceof ApiError);
  assert.equal(err.message, "The body does not match the schema: " + PROBLEM.detail);
  assert.equal(err.problem, PROBLEM);
  assert.ok(names(err, "turns"));
  assert.ok(!names(err, "turn"));
  assert.deepEqual(problemItems(PROBLEM), [["turns", PROBLEM.errors[0].message]]);
  assert.deepEqual(problemItems({ errors: [{ path: "position", rule: "position.tier-sum", message: "m" }] }), [["position.tier-sum", "m"]]);
});

test("an answer that is not a problem, and no answer at all", async () => {
  const err = await call(VIEW, {}, answer(502, null, "text/html")).catch((e) => e);
  assert.equal(err.message, "The service answered 502.");
  assert.equal(err.problem, null);
  const gone = await call(VIEW, {}, async () => {
    throw new TypeError("Failed to fetch");
  }).catch((e) => e);
  assert.equal(gone.message, "The service did not answer (Failed to fetch).");
  assert.equal(problemLine(null, 404), "The service answered 404.");
});

test("a permalink, relative to the page, made absolute", () => {
  assert.equal(absolute("game?turns=c3+%2Bd4&at=2", "http://h/x/"), "http://h/x/game?turns=c3+%2Bd4&at=2");
  assert.equal(absolute("?position=P", "http://h/"), "http://h/?position=P");
});
