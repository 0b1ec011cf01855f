/* Hexodic playground: builds a turn on the board and asks the service's own
 * API about it (v1/start, v1/validate, v1/render, v1/check, v1/legal-turns).
 * Its state is a link: the position and the checked turn, or the game and the
 * turn open in it, are in the address (?position=<HPN>&turn=<HTN>, or
 * ?turns=<HTN>;<HTN>;...&at=<n>), pushed on each change, so back, forward,
 * reload and copying the address work; Share copies the matching permalink
 * page (check?... for a turn, game?... for a game).
 * Plain JavaScript, no library, no build step; every URL is relative to the
 * page, so the page works offline and behind a path prefix. */
"use strict";

(function () {
  const API = {
    start: "v1/start",
    validate: "v1/validate",
    render: "v1/render",
    check: "v1/check",
    legal: "v1/legal-turns",
  };
  const ROWS = "abcdefg";
  const STATUS = {
    passed: { symbol: "\u2713", text: "passed" },
    failed: { symbol: "\u2717", text: "failed" },
    not_applicable: { symbol: "\u2013", text: "not applicable" },
  };

  // The 37 cells in board order (RULES §1: |row − column| ≤ 3).
  const CELLS = [];
  for (let r = 1; r <= 7; r++) {
    for (let c = 1; c <= 7; c++) {
      if (Math.abs(r - c) <= 3) CELLS.push(ROWS[r - 1] + c);
    }
  }
  const CELL_RE = /^[a-g][1-7]$/;
  const isCell = (s) => CELL_RE.test(s) && CELLS.includes(s);

  const state = {
    hpn: null, // the position, as canonical HPN
    mover: null,
    reserve: 0,
    skip: false, // the capture cooldown skips this turn's Project and Shape
    gameOver: null, // the validation's message when the game is over
    history: null, // earlier positions (HPN), or null when not known
    project: null, // {kind: "place", cell} | {kind: "move", from, to} | {kind: "skip"}
    pendingFrom: null, // a Move's from-cell while its to-cell is awaited
    shape: null, // {kind: "raise" | "lower", cell}
    echo: null, // {kind: "capture" | "lock", cell}
    verdict: null, // the last verdict, while it matches the turn
    legalMode: false, // "Show legal turns" is on
    focusCell: "d4", // the board's roving tab stop
    renderSeq: 0,
    checked: null, // the HTN of the last turn checked on this position (for the address)
    // The game from the start position, or null for a pasted position:
    // turns (HTN; those after the first illegal one unchecked), positions
    // (HPN before each turn, as far as the turns are legal, so positions.length
    // is the last "at"), and at: the turn open (1-based; turns.length + 1 is
    // the position after the last turn).
    game: null,
  };
  const EMBED = new URLSearchParams(location.search).get("embed") === "1";
  const MAX_TURNS = 60;

  const $ = (id) => document.getElementById(id);
  const el = {};

  // ------------------------------------------------------------ helpers --

  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  class ApiError extends Error {
    constructor(message, problem) {
      super(message);
      this.problem = problem || null;
    }
  }

  async function call(method, url, body) {
    const opts = { method, headers: { Accept: "application/json, image/svg+xml" } };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(url, opts);
    } catch (e) {
      throw new ApiError("The service did not answer (" + e.message + ").");
    }
    const type = res.headers.get("Content-Type") || "";
    if (!res.ok) {
      let problem = null;
      if (type.includes("json")) {
        try {
          problem = await res.json();
        } catch (e) {
          problem = null;
        }
      }
      const text = problem
        ? (problem.title || "Error") + ": " + (problem.detail || "")
        : "The service answered " + res.status + ".";
      throw new ApiError(text, problem);
    }
    return type.includes("svg") ? res.text() : res.json();
  }

  function problemNode(err) {
    const box = h("div", { class: "problem", role: "alert" });
    box.append(h("p", {}, h("strong", { text: "Error: " }), err.message));
    const errors = err.problem && Array.isArray(err.problem.errors) ? err.problem.errors : [];
    if (errors.length) {
      const ul = h("ul");
      for (const e of errors) {
        const where = e.rule || e.path || "";
        ul.append(h("li", {}, where ? h("code", { text: where }) : null, where ? " " : null, e.message || ""));
      }
      box.append(ul);
    }
    return box;
  }

  // While anything is being fetched or drawn, body[data-busy] is set (tests
  // and scripts can wait for it to clear).
  let pending = 0;
  function busy(delta) {
    pending += delta;
    if (pending > 0) document.body.dataset.busy = "true";
    else delete document.body.dataset.busy;
  }
  function task(fn) {
    return async function (...args) {
      busy(1);
      try {
        return await fn.apply(this, args);
      } finally {
        busy(-1);
      }
    };
  }

  function say(text) {
    el.message.textContent = text;
  }

  function withHistory(body) {
    if (state.history !== null) body.history = state.history;
    return body;
  }

  // HPN: "<board> <to-move> <A> <B> <half-moves>"; a player is
  // "reserve:charges:lowers_left:captures:raises:flags:cooldown".
  function hpnFacts(hpn) {
    const f = hpn.trim().split(/\s+/);
    const player = (s) => {
      const p = s.split(":");
      return { reserve: +p[0], charges: +p[1], lowers: +p[2], captures: +p[3], cooldown: p[6] };
    };
    return { toMove: f[1], A: player(f[2]), B: player(f[3]), halfMoves: +f[4] };
  }

  // A query string that keeps HPN and HTN readable: / : ; , stay as they are
  // and a space is "+" (the server reads them the same).
  function qs(params) {
    return Object.entries(params)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => k + "=" + encodeURIComponent(String(v)).replace(/%20/g, "+").replace(/%2F/gi, "/")
        .replace(/%3A/gi, ":").replace(/%3B/gi, ";").replace(/%2C/gi, ","))
      .join("&");
  }

  // A score sheet's turns, as the server's checker.scoresheet reads
  // them: one per line or separated by ";", a leading move number dropped.
  // A rule id that a line may break only after a dot (as checker/web/pages.py rule_id
  // writes it on the pages): each part kept whole, a break opportunity after each dot.
  function ruleIdNode(rule) {
    const code = h("code", { class: "rule-id" });
    rule.split(".").forEach((part, i, parts) => {
      if (i) code.append(document.createElement("wbr"));
      code.append(h("span", { text: part + (i < parts.length - 1 ? "." : "") }));
    });
    return code;
  }

  // ------------------------------------------------------- score sheets --
  // checker/scoresheet.py's reader, ported: lines (or ';'-separated entries),
  // each with an optional move number (12. or 12...) and one or two HTN turns
  // (a new turn starts at every token that is not a Shape or an Echo).  The
  // shared cases of checker/data/scoresheet_cases.json hold the two equal
  // (tests/web/test_scoresheet_everywhere.py), and HTN_PATTERN is the
  // server's own (checker.notation.HTN_PATTERN; tests/test_patterns.py).
  const HTN_PATTERN = "^[ \t\r\n]*(?:[sS][kK][iI][pP]|(?:[aA][1-4]|[bB][1-5]|[cC][1-6]|[dD][1-7]|[eE][2-7]|[fF][3-7]|[gG][4-7])(?:[-xX](?:[aA][1-4]|[bB][1-5]|[cC][1-6]|[dD][1-7]|[eE][2-7]|[fF][3-7]|[gG][4-7]))?)(?:[ \t\r\n]+[-+](?:[aA][1-4]|[bB][1-5]|[cC][1-6]|[dD][1-7]|[eE][2-7]|[fF][3-7]|[gG][4-7]))?(?:[ \t\r\n]+[*#](?:[aA][1-4]|[bB][1-5]|[cC][1-6]|[dD][1-7]|[eE][2-7]|[fF][3-7]|[gG][4-7]))?[ \t\r\n]*$";
  const HTN_RE = new RegExp(HTN_PATTERN);
  const SHEET_NUMBER_RE = /^[0-9]+[ \t]*\.+[ \t]*/;

  class SheetError extends Error {
    constructor(reason, line, column, text) {
      super(line ? `line ${line}, column ${column} ('${text}'): ${reason}` : reason);
      Object.assign(this, { reason, line, column, text });
    }
  }

  function sheetEntryTurns(line, column, entry) {
    const lead = entry.length - entry.replace(/^[ \t]+/, "").length;
    const number = SHEET_NUMBER_RE.exec(entry.slice(lead));
    const tokens = /[^ \t]+/g;
    tokens.lastIndex = number ? lead + number[0].length : 0;
    const groups = [];
    let m;
    while ((m = tokens.exec(entry))) {
      const token = { start: m.index, end: m.index + m[0].length };
      if ("+-*#".includes(m[0][0]) && groups.length) groups[groups.length - 1].push(token);
      else groups.push([token]);
    }
    const out = groups.map((g) => {
      const text = entry.slice(g[0].start, g[g.length - 1].end);
      const where = column + g[0].start;
      if (!HTN_RE.test(text)) throw new SheetError("not an HTN turn (see the rules reference, HTN)", line, where, text);
      return { text, line, column: where };
    });
    if (out.length > 2) {
      throw new SheetError("an entry holds at most two turns (A's and B's); start a new line or write ';'",
        line, out[2].column, out[2].text);
    }
    return out;
  }

  // A score sheet's turns one per line for the sheet's box (the text as it is when it does not read).
  function sheetLines(text) {
    try {
      return readScoreSheet(text).map((t) => t.text).join("\n");
    } catch (err) {
      return text;
    }
  }

  // The turns of a score sheet as written ({text, line, column}); throws SheetError.
  function readScoreSheet(text) {
    const turns = [];
    text.split(/\r\n|\r|\n/).forEach((lineText, i) => {
      let column = 1;
      for (const entry of lineText.split(";")) {
        turns.push(...sheetEntryTurns(i + 1, column, entry));
        column += entry.length + 1;
      }
    });
    if (!turns.length) throw new SheetError("no turn: write HTN turns one per line or separated by ';', such as c3 +d4; e5 +d4");
    return turns;
  }

  // ----------------------------------------------------- turn and HTN --

  function projectHtn(p) {
    if (!p) return "";
    if (p.kind === "place") return p.cell;
    if (p.kind === "move") return p.from + "-" + p.to;
    return "skip";
  }

  function turnHtn() {
    const parts = [];
    if (state.project) parts.push(projectHtn(state.project));
    else if (state.pendingFrom) parts.push(state.pendingFrom + "-");
    if (state.shape) parts.push((state.shape.kind === "raise" ? "+" : "-") + state.shape.cell);
    if (state.echo) parts.push((state.echo.kind === "capture" ? "*" : "#") + state.echo.cell);
    return parts.join(" ");
  }

  // The turn typed in HTN, or null when it does not parse (the check then
  // says where).
  function parseHtn(text) {
    const tokens = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (!tokens.length) return { project: null, shape: null, echo: null };
    const out = { project: null, shape: null, echo: null };
    const first = tokens.shift();
    let m;
    if (first === "skip") out.project = { kind: "skip" };
    else if (isCell(first)) out.project = { kind: "place", cell: first };
    else if ((m = /^([a-g][1-7])[-x]([a-g][1-7])$/.exec(first)) && isCell(m[1]) && isCell(m[2]))
      out.project = { kind: "move", from: m[1], to: m[2] };
    else return null;
    let t = tokens[0];
    if (t && (m = /^([+-])([a-g][1-7])$/.exec(t)) && isCell(m[2])) {
      out.shape = { kind: m[1] === "+" ? "raise" : "lower", cell: m[2] };
      tokens.shift();
    }
    t = tokens[0];
    if (t && (m = /^([*#])([a-g][1-7])$/.exec(t)) && isCell(m[2])) {
      out.echo = { kind: m[1] === "*" ? "capture" : "lock", cell: m[2] };
      tokens.shift();
    }
    return tokens.length ? null : out;
  }

  function shapeKind() {
    return document.querySelector('input[name="shape-kind"]:checked').value;
  }

  function echoKind() {
    return document.querySelector('input[name="echo-kind"]:checked').value;
  }

  function setRadio(name, value) {
    const input = document.querySelector(`input[name="${name}"][value="${value}"]`);
    if (input) input.checked = true;
  }

  function describeParts() {
    const items = [];
    const p = state.project;
    const step1 = state.reserve > 0 ? "Step 1/2: Place" : "Step 1/2: Move";
    if (p && p.kind === "place") items.push([step1, "Place on " + p.cell]);
    else if (p && p.kind === "move") items.push([step1, "Move " + p.from + " to " + p.to]);
    else if (p && p.kind === "skip") items.push([step1, "skipped (capture cooldown)"]);
    else if (state.pendingFrom) items.push([step1, "Move from " + state.pendingFrom + " to … (choose the destination)"]);
    else items.push([step1, "not chosen yet"]);
    if (state.shape) items.push(["Step 2/2: Shape", state.shape.kind + " " + state.shape.cell]);
    else items.push(["Step 2/2: Shape", p && p.kind === "skip" ? "skipped with the Project" : "none"]);
    if (state.echo)
      items.push(["Step 3: Echo (optional)", (state.echo.kind === "capture" ? "Echo-Capture of " : "Echo-Lock of ") + state.echo.cell]);
    else items.push(["Step 3: Echo (optional)", "none"]);
    el.parts.replaceChildren(...items.map(([k, v]) => h("li", {}, h("span", { class: "step", text: k + ": " }), v)));
  }

  function hint() {
    let text;
    if (!state.hpn) text = "Load a position first.";
    else if (state.gameOver) text = state.gameOver + " No turn is legal now: load another position or the start position.";
    else if (!state.project && state.pendingFrom)
      text = `Move from ${state.pendingFrom}: choose the destination cell (choose ${state.pendingFrom} again to cancel).`;
    else if (!state.project && state.reserve > 0)
      text = `${state.mover} to move, ${state.reserve} in reserve: choose an empty cell to Place on.`;
    else if (!state.project) text = `${state.mover} to move with an empty reserve: choose a Stone to Move, then its destination.`;
    else if (!state.shape && state.project.kind !== "skip")
      text = `Next: choose the cell to ${shapeKind()} (Shape, within 2 steps of the landing cell). Or Check now.`;
    else if (echoKind() !== "none")
      text = `Next: choose the ${echoKind() === "capture" ? "Echo-Capture target" : "Echo-Lock cell"}. Or Check now.`;
    else text = "The turn is ready: Check it, pick an Echo kind to add an Echo, or Clear turn.";
    el.hint.textContent = text;
  }

  function clearTurnState() {
    state.project = state.skip ? { kind: "skip" } : null;
    state.pendingFrom = null;
    state.shape = null;
    state.echo = null;
  }

  // After every change of the turn: the text field, the list, the hint,
  // the marks on the board, and a verdict that no longer matches.
  function turnChanged(opts) {
    const fromField = opts && opts.fromField;
    if (!fromField) el.htn.value = turnHtn();
    describeParts();
    hint();
    if (state.verdict) {
      state.verdict = null;
      el.play.disabled = true;
      const note = el.result.querySelector(".stale-note");
      if (!note && el.result.firstChild)
        el.result.prepend(h("p", { class: "stale-note", text: "The turn has changed since this check: press Check again." }));
    }
    if (opts && opts.noRender) markSelection();
    else if (state.legalMode) refreshLegal();
    else if (el.board.dataset.shows !== "plain") renderBoard({});
    else markSelection();
  }

  function activate(cell) {
    if (!state.hpn) return;
    if (!state.project) {
      if (state.reserve > 0) {
        state.project = { kind: "place", cell };
      } else if (!state.pendingFrom) {
        state.pendingFrom = cell;
      } else if (state.pendingFrom === cell) {
        state.pendingFrom = null;
        say("Move cancelled.");
      } else {
        state.project = { kind: "move", from: state.pendingFrom, to: cell };
        state.pendingFrom = null;
      }
    } else if (!state.shape && state.project.kind !== "skip") {
      state.shape = { kind: shapeKind(), cell };
    } else if (echoKind() !== "none") {
      state.echo = { kind: echoKind(), cell };
    } else {
      say("The turn already has its Project and Shape: pick an Echo kind to add an Echo, or Clear turn to start over.");
      return;
    }
    say("Turn: " + (turnHtn() || "(empty)"));
    turnChanged();
  }

  // -------------------------------------------------------------- board --

  function cellNodes() {
    return el.board.querySelectorAll("g.cell[data-cell]");
  }

  function cellNode(name) {
    return el.board.querySelector(`g.cell[data-cell="${name}"]`);
  }

  function selectionOf(name) {
    const roles = [];
    const p = state.project;
    if (p && p.kind === "place" && p.cell === name) roles.push(["P", "chosen: Place"]);
    if (p && p.kind === "move" && p.from === name) roles.push(["F", "chosen: Move from"]);
    if (p && p.kind === "move" && p.to === name) roles.push(["T", "chosen: Move to"]);
    if (state.pendingFrom === name) roles.push(["F", "chosen: Move from"]);
    if (state.shape && state.shape.cell === name)
      roles.push([state.shape.kind === "raise" ? "+" : "\u2212", "chosen: Shape " + state.shape.kind]);
    if (state.echo && state.echo.cell === name)
      roles.push([state.echo.kind === "capture" ? "*" : "#", state.echo.kind === "capture" ? "chosen: Echo-Capture" : "chosen: Echo-Lock"]);
    return roles;
  }

  // A cell's accessible name begins with what it shows (its Tier, its
  // Stone, its name: "0 A c3"), then says it in words, then what the
  // highlight means in this drawing and what the turn chose there. A cell is
  // a button that takes the turn's next step, not an on/off toggle, so it has
  // no aria-pressed.
  function cellLabel(g, roles) {
    const shown = [...g.querySelectorAll("text")]
      .filter((t) => !t.closest(".pg-tag"))
      .map((t) => t.textContent.trim())
      .filter(Boolean);
    const d = g.dataset;
    const parts = [shown.join(" ") || d.cell, "Tier " + d.tier, d.stone === "empty" ? "no Stone" : d.stone + "'s Stone"];
    if (d.locked === "true") parts.push("locked");
    if (d.highlight === "true") parts.push(el.board.dataset.shows === "highlight" ? "a legal choice" : "named by a failed check");
    for (const r of roles) parts.push(r[1]);
    return parts.join(", ");
  }

  // Client-side marks of the turn being built: a tag in the cell's corner
  // (a letter or symbol, so not colour alone) and the cell's label.
  function markSelection() {
    const svg = el.board.querySelector("svg");
    if (!svg) return;
    const ns = svg.namespaceURI;
    for (const g of cellNodes()) {
      const name = g.dataset.cell;
      g.querySelectorAll(".pg-tag").forEach((t) => t.remove());
      const roles = selectionOf(name);
      g.classList.toggle("pg-selected", roles.length > 0);
      g.setAttribute("aria-label", cellLabel(g, roles));
      // a drawn verdict carries the renderer's own marks of the turn
      if (!roles.length || el.board.dataset.shows === "turn") continue;
      const hex = g.querySelector("polygon.hex");
      const box = hex.getBBox();
      const cx = box.x + box.width / 2;
      const cy = box.y + box.height / 2;
      // a dashed ring inside the cell, under any highlight outline
      const ring = document.createElementNS(ns, "polygon");
      ring.setAttribute("class", "pg-tag pg-ring");
      ring.setAttribute("aria-hidden", "true");
      ring.setAttribute(
        "points",
        (hex.getAttribute("points") || "")
          .trim()
          .split(/\s+/)
          .map((pt) => {
            const [x, y] = pt.split(",").map(Number);
            return `${(cx + (x - cx) * 0.84).toFixed(1)},${(cy + (y - cy) * 0.84).toFixed(1)}`;
          })
          .join(" ")
      );
      hex.after(ring);
      // and a tag with a letter or symbol, so the choice is not told by colour alone
      const label = roles.map((r) => r[0]).join("");
      const tag = document.createElementNS(ns, "g");
      tag.setAttribute("class", "pg-tag");
      tag.setAttribute("aria-hidden", "true");
      const w = 8 + 7 * label.length;
      const rect = document.createElementNS(ns, "rect");
      rect.setAttribute("x", (cx - 23).toFixed(1));
      rect.setAttribute("y", (cy - 6.5).toFixed(1));
      rect.setAttribute("width", String(w));
      rect.setAttribute("height", "14");
      rect.setAttribute("rx", "3");
      const text = document.createElementNS(ns, "text");
      text.setAttribute("x", (cx - 23 + w / 2).toFixed(1));
      text.setAttribute("y", (cy + 4).toFixed(1));
      text.setAttribute("text-anchor", "middle");
      text.setAttribute("font-size", "11");
      text.setAttribute("font-weight", "bold");
      text.textContent = label;
      tag.append(rect, text);
      g.append(tag);
    }
  }

  function setRoving(name) {
    if (!cellNode(name)) name = "d4";
    state.focusCell = name;
    for (const g of cellNodes()) g.setAttribute("tabindex", g.dataset.cell === name ? "0" : "-1");
  }

  function focusCell(name) {
    setRoving(name);
    const g = cellNode(name);
    if (g) g.focus();
  }

  // Arrow keys: Left/Right step through the cells in board order; Up/Down go
  // to the nearest cell of the row above/below (up-left or down-right on a
  // tie, so Up then Down comes back).
  function neighbourFor(name, key) {
    const i = CELLS.indexOf(name);
    if (key === "ArrowLeft") return CELLS[Math.max(0, i - 1)];
    if (key === "ArrowRight") return CELLS[Math.min(CELLS.length - 1, i + 1)];
    if (key === "Home") return CELLS[0];
    if (key === "End") return CELLS[CELLS.length - 1];
    const r = ROWS.indexOf(name[0]) + 1;
    const c = +name.slice(1);
    const x = c - r / 2;
    const r2 = key === "ArrowUp" ? r - 1 : r + 1;
    if (r2 < 1 || r2 > 7) return name;
    let best = null;
    let bestD = Infinity;
    for (const cand of CELLS) {
      if (ROWS.indexOf(cand[0]) + 1 !== r2) continue;
      const x2 = +cand.slice(1) - r2 / 2;
      let d = Math.abs(x2 - x);
      // on a tie prefer the left one going up, the right one going down
      d += key === "ArrowUp" ? (x2 < x ? 0 : 1e-3) : x2 > x ? 0 : 1e-3;
      if (d < bestD) {
        bestD = d;
        best = cand;
      }
    }
    return best || name;
  }

  // The page says in words what the drawing's header, caption and legend say
  // (the position line, the verdict, the legend under the board), so the
  // drawing is cropped to the cells: on a phone they then use the width.
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

  const renderBoard = task(async function (opts) {
    if (!state.hpn) return false;
    const seq = ++state.renderSeq;
    el.board.setAttribute("aria-busy", "true");
    const body = { position: state.hpn };
    if (opts.highlight && opts.highlight.length) body.highlight = opts.highlight;
    if (opts.turn) withHistory(Object.assign(body, { turn: opts.turn }));
    let text;
    try {
      text = await call("POST", API.render, body);
    } catch (err) {
      if (seq === state.renderSeq) {
        el.board.removeAttribute("aria-busy");
        el.board.replaceChildren(problemNode(err));
      }
      return false;
    }
    if (seq !== state.renderSeq) return false; // a later drawing was asked for
    el.board.removeAttribute("aria-busy");
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const root = doc.documentElement;
    if (!root || root.localName !== "svg") {
      el.board.replaceChildren(problemNode(new ApiError("The board drawing could not be read.")));
      return false;
    }
    const svg = document.importNode(root, true);
    // Cells inside are interactive, so the drawing is a group, not an image.
    svg.setAttribute("role", "group");
    svg.removeAttribute("aria-labelledby");
    svg.setAttribute("aria-label", "Board: 37 cells");
    svg.setAttribute("focusable", "false");
    svg.classList.add("board-svg");
    const hadFocus = el.board.contains(document.activeElement);
    for (const g of svg.querySelectorAll("g.cell[data-cell]")) {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "-1");
      // the name comes from aria-label (cellLabel); the drawing's <title> would
      // be read into the cell's text too, and its words run together ("0d4")
      // without a space between them
      g.querySelectorAll(":scope > title").forEach((t) => t.remove());
      g.querySelectorAll(":scope > text").forEach((t) => t.before(document.createTextNode(" ")));
    }
    el.board.replaceChildren(svg);
    fitToBoard(svg);
    el.board.dataset.shows = opts.turn ? "turn" : opts.highlight && opts.highlight.length ? "highlight" : "plain";
    setRoving(state.focusCell);
    markSelection();
    if (hadFocus) focusCell(state.focusCell);
    return true;
  });

  // ----------------------------------------------------------- position --

  function showPositionStatus(validation) {
    const f = hpnFacts(state.hpn);
    const pl = (n) => {
      const p = f[n];
      const cd = p.cooldown && p.cooldown !== "-" ? ", capture cooldown " + p.cooldown.replace(/,/g, ", ") : "";
      return `${n}: ${p.reserve} in reserve, ${p.charges} charges, ${p.lowers} lowers left, ${p.captures} captures${cd}`;
    };
    const status = validation && validation.status;
    // one line above the board (who moves, or how the game ended); the
    // players' counts and the history in the Position panel
    const line = [h("strong", { class: "to-move", text: `${f.toMove} to move` }), ` \u00b7 ${f.halfMoves} of 60 half-moves played`];
    if (status && status.game_over) line.push(h("br"), status.message);
    else if (status) line.push(` \u00b7 ${status.legal_turns} legal turns`);
    el.posStatus.replaceChildren(...line);
    el.posFacts.replaceChildren(
      pl("A"),
      h("br"),
      pl("B"),
      h("br"),
      state.history === null
        ? "History not known: repetition and threefold are not evaluated."
        : `History: ${state.history.length} earlier position${state.history.length === 1 ? "" : "s"} (repetition and threefold are evaluated).`
    );
  }

  function checklist(checks, caption) {
    const table = h("table", { class: "checklist" });
    table.append(h("caption", { text: caption }));
    const head = h("tr");
    for (const t of ["Result", "Step", "Rule", "Message", "More"]) head.append(h("th", { scope: "col", text: t }));
    table.append(h("thead", {}, head));
    const body = h("tbody");
    for (const c of checks) {
      const st = STATUS[c.status] || { symbol: "?", text: c.status };
      const tr = h("tr", { class: "check status-" + c.status, "data-rule": c.rule, "data-status": c.status });
      tr.append(
        h(
          "td",
          { class: "status" },
          h("span", { class: "symbol", "aria-hidden": "true", text: st.symbol }),
          " ",
          h("span", { class: "status-text", text: st.text })
        ),
        h("td", { class: "step", text: c.step }),
        h("td", { class: "rule" }, h("a", { href: c.rule_url || "/rules#" + c.rule, title: "The rule's text" }, ruleIdNode(c.rule))),
        h("td", { class: "msg", text: c.message }),
        h(
          "td",
          { class: "more" },
          c.more ? h("a", { href: c.more, target: "_blank", rel: "noopener noreferrer", "aria-label": "More about " + c.rule, text: "more" }) : ""
        )
      );
      body.append(tr);
    }
    table.append(body);
    return h("div", { class: "table-wrap" }, table);
  }

  // A new game context (the start, or a pasted position) forgets the turns
  // played and the last verdict; Play on keeps them.
  function resetGame() {
    el.record.replaceChildren();
    el.recordEmpty.hidden = false;
    el.result.replaceChildren(h("p", { class: "help", text: "No turn checked yet." }));
  }

  const loadPosition = task(async function (hpn, history, message, fresh) {
    let v;
    try {
      v = await call("POST", API.validate, { position: hpn });
    } catch (err) {
      el.validation.replaceChildren(problemNode(err));
      say("The position was not loaded: " + err.message);
      return false;
    }
    if (!v.consistent) {
      const failed = v.checks.filter((c) => c.status === "failed");
      el.validation.replaceChildren(
        h("p", { class: "verdict verdict-illegal" }, h("span", { "aria-hidden": "true", text: "\u2717 " }),
          `Not consistent: ${failed.length} condition${failed.length === 1 ? "" : "s"} broken; the position was not loaded.`),
        checklist(v.checks, "The position's consistency checks")
      );
      say("The position is not consistent: " + failed.map((c) => c.rule).join(", ") + ".");
      return false;
    }
    if (fresh) resetGame();
    state.hpn = v.hpn;
    state.history = history;
    const f = hpnFacts(v.hpn);
    state.mover = f.toMove;
    state.reserve = f[f.toMove].reserve;
    state.skip = !!(v.status && v.status.cooldown_skip);
    state.gameOver = v.status && v.status.game_over ? v.status.message : null;
    setLegalMode(false);
    state.verdict = null;
    state.checked = null;
    el.play.disabled = true;
    el.hpn.value = v.hpn;
    el.validation.replaceChildren(
      h("p", { class: "verdict verdict-legal" }, h("span", { "aria-hidden": "true", text: "\u2713 " }), "Consistent position loaded.")
    );
    el.highlightNote.hidden = true;
    for (const b of [el.check, el.clear, el.legal]) b.disabled = false;
    showPositionStatus(v);
    clearTurnState();
    if (state.skip) say("The capture cooldown leaves no legal Place: this turn's Project and Shape are skipped.");
    else say(message || `Position loaded: ${state.mover} to move.`);
    turnChanged({ noRender: true });
    await renderBoard({});
    return true;
  });

  // a pasted position has no known history, unless it is the start
  const loadPasted = task(async function (text) {
    let start = null;
    try {
      start = (await call("GET", API.start)).hpn;
    } catch (err) {
      start = null;
    }
    const isStart = start !== null && start === text;
    if (!(await loadPosition(text, isStart ? [] : null, null, true))) return false;
    state.game = isStart ? newGame(state.hpn) : null;
    showGame();
    return true;
  });

  const loadStart = task(async function () {
    try {
      const s = await call("GET", API.start);
      if (!(await loadPosition(s.hpn, [], "Start position loaded: A to move.", true))) return false;
      state.game = newGame(state.hpn);
      showGame();
      return true;
    } catch (err) {
      el.validation.replaceChildren(problemNode(err));
      say("The start position could not be loaded: " + err.message);
      return false;
    }
  });

  // -------------------------------------------------------------- check --

  function outcomeNode(v) {
    const o = v.outcome;
    const box = h("div", { class: "outcome" });
    box.append(h("h3", { text: "Resulting position" }));
    box.append(h("p", {}, h("code", { id: "result-hpn", class: "hpn", text: o.hpn })));
    box.append(h("h3", { text: "Capture weighing" }));
    if (o.capture_check.length) {
      box.append(
        h(
          "ul",
          { class: "weighing" },
          ...o.capture_check.map((w) =>
            h("li", {}, w.message, w.rule_url ? " " : null, w.rule_url ? h("a", { href: w.rule_url, text: "rule" }) : null)
          )
        )
      );
    } else {
      box.append(h("p", { class: "help", text: "No stone was weighed." }));
    }
    box.append(h("h3", { text: "Events" }));
    if (o.events.length) {
      box.append(
        h(
          "ul",
          { class: "events" },
          ...o.events.map((e) =>
            h("li", { "data-type": e.type }, e.message, e.more ? " " : null,
              e.more ? h("a", { href: e.more, target: "_blank", rel: "noopener noreferrer", "aria-label": "More about " + e.type, text: "more" }) : null)
          )
        )
      );
    } else {
      box.append(h("p", { class: "help", text: "No events." }));
    }
    box.append(h("h3", { text: "Game" }));
    const g = o.game;
    const game = h("p", { class: g.over ? "game game-over" : "game" });
    if (g.over) {
      const who = g.result === "draw" ? "a draw" : g.result + " wins";
      game.append(h("strong", { text: `The game ends: ${who} (${g.reason}). ` }));
    }
    game.append(g.message);
    if (g.rule_url) game.append(" ", h("a", { href: g.rule_url, text: "rule" }));
    if (g.more) game.append(" ", h("a", { href: g.more, target: "_blank", rel: "noopener noreferrer", "aria-label": "More about the game's end", text: "more" }));
    box.append(game);
    box.append(h("p", { class: "help", text: g.over ? "Play on loads the final position." : "Play on loads the resulting position." }));
    return box;
  }

  function verdictNode(v, heading) {
    const frag = h("div", { class: "verdict-box", "data-legal": v.legal ? "true" : "false" });
    if (heading) frag.append(h("p", { class: "played-note", text: heading }));
    frag.append(
      h(
        "p",
        { class: "verdict " + (v.legal ? "verdict-legal" : "verdict-illegal"), id: "verdict-head" },
        h("span", { "aria-hidden": "true", text: v.legal ? "\u2713 " : "\u2717 " }),
        h("strong", { text: v.legal ? "Legal" : "Illegal" }),
        ` \u00b7 turn `,
        h("code", { text: v.turn }),
        ` by ${v.mover}`
      )
    );
    frag.append(h("p", { class: "summary", id: "verdict-summary", text: v.summary }));
    if (v.violations.length)
      frag.append(h("p", { class: "violations" }, "Failed: ", ...v.violations.flatMap((r, i) => [i ? ", " : "", h("code", { text: r })])));
    frag.append(checklist(v.checks, `Checks of ${v.turn} for ${v.mover}, in turn order`));
    if (v.legal) frag.append(outcomeNode(v));
    return frag;
  }

  // At most three rule ids, then how many more: the status line stays one
  // short line (the checklist below has them all).
  function listShort(ids) {
    const shown = ids.slice(0, 3).join(", ");
    return ids.length > 3 ? `${shown} and ${ids.length - 3} more` : shown;
  }

  // After a Check on a narrow screen the verdict panel is below the turn's
  // controls: bring its head and summary into view (focus stays on Check).
  function showVerdict() {
    const head = $("result-heading");
    const summary = $("verdict-summary") || el.result;
    const r = summary.getBoundingClientRect();
    if (r.bottom > window.innerHeight || r.top < 0) head.scrollIntoView({ block: "start" });
  }

  const doCheck = task(async function () {
    if (!state.hpn) return;
    const text = el.htn.value.trim();
    if (!text) {
      say("There is no turn to check: click the board or type a turn in HTN.");
      el.htn.focus();
      return;
    }
    let v;
    try {
      v = await call("POST", API.check, withHistory({ position: state.hpn, turn: text }));
    } catch (err) {
      state.verdict = null;
      state.checked = null;
      el.play.disabled = true;
      el.result.replaceChildren(problemNode(err));
      say("The turn was not checked: " + err.message);
      return;
    }
    state.verdict = v;
    state.checked = v.turn;
    el.result.replaceChildren(verdictNode(v));
    el.play.disabled = !v.legal;
    say(v.legal ? `Checked ${v.turn}: legal.` : `Checked ${v.turn}: illegal; failed: ${listShort(v.violations)}.`);
    await renderBoard({ turn: text });
    showVerdict();
  });

  const playOn = task(async function () {
    const v = state.verdict;
    if (!v || !v.legal) return;
    const history = state.history === null ? null : state.history.concat([state.hpn]);
    const played = v.turn;
    const mover = v.mover;
    // Play on is disabled once the position is loaded: first move the focus to
    // the board, where the next turn begins (the status line says what was played)
    if (el.board.querySelector("g.cell[data-cell]")) focusCell(state.focusCell);
    else $("turn-heading").focus();
    const ok = await loadPosition(v.outcome.hpn, history);
    if (!ok) return;
    let replaced = false;
    const g = state.game;
    if (g) {
      // following the game, or a different turn: the rest of the game gives way
      if (g.turns[g.at - 1] !== played || g.positions.length <= g.at) {
        replaced = g.at <= g.turns.length;
        g.turns = g.turns.slice(0, g.at - 1).concat([played]);
        g.positions = g.positions.slice(0, g.at).concat([state.hpn]);
      }
      g.at += 1;
      showGame();
    } else {
      el.record.append(h("li", {}, h("code", { text: played }), ` (${mover})`));
      el.recordEmpty.hidden = true;
    }
    el.result.replaceChildren(verdictNode(v, `Played ${played}; these are its checks.`));
    const next = hpnFacts(state.hpn).toMove;
    const rest = replaced ? " The game's later turns were replaced." : "";
    say((v.outcome.game.over ? `Played ${played}. ${v.outcome.game.message}` : `Played ${played}. ${next} to move.`) + rest);
  });

  // The turn in the HTN field becomes the turn being built (typed, or set
  // from the address or a game).
  function takeTypedTurn(render) {
    const parsed = parseHtn(el.htn.value);
    if (parsed) {
      state.project = parsed.project;
      state.pendingFrom = null;
      state.shape = parsed.shape;
      state.echo = parsed.echo;
      if (parsed.shape) setRadio("shape-kind", parsed.shape.kind);
      if (parsed.echo) setRadio("echo-kind", parsed.echo.kind);
    }
    turnChanged({ fromField: true, noRender: !render });
    if (!parsed) el.hint.textContent = "The typed turn does not parse yet; Check says where.";
  }

  const checkTurn = task(async function (text) {
    el.htn.value = text;
    takeTypedTurn(false);
    await doCheck();
  });

  function clearTurn() {
    clearTurnState();
    state.verdict = null;
    el.play.disabled = true;
    el.result.replaceChildren(h("p", { class: "help", text: "No turn checked yet." }));
    say("Turn cleared.");
    turnChanged();
  }

  // ---------------------------------------------------------- legal turns --

  const refreshLegal = task(async function () {
    if (!state.hpn) return;
    const p = state.project;
    const body = withHistory({ position: state.hpn });
    if (p) body.project = projectHtn(p);
    let r;
    try {
      r = await call("POST", API.legal, body);
    } catch (err) {
      el.highlightNote.hidden = false;
      el.highlightNote.replaceChildren(problemNode(err));
      return;
    }
    if (p !== state.project || !state.legalMode) return; // the turn changed meanwhile, or the toggle is off
    const cells = [];
    const add = (c) => {
      if (c && !cells.includes(c)) cells.push(c);
    };
    let text;
    if (!p) {
      let turns = r.turns;
      if (state.pendingFrom) turns = turns.filter((t) => t.turn.project.kind === "move" && t.turn.project.from === state.pendingFrom);
      for (const t of turns) add(t.turn.project.kind === "place" ? t.turn.project.cell : t.turn.project.to);
      const skip = turns.some((t) => t.turn.project.kind === "skip");
      const where = state.pendingFrom ? `a legal Move from ${state.pendingFrom} lands` : "a legal Project lands";
      text = `${r.count} legal turns. Highlighted: the ${cells.length} cells where ${where}` + (cells.length ? ": " + cells.join(", ") + "." : ".");
      if (skip) text += " The Project is skipped this turn (capture cooldown).";
    } else {
      const shapes = [];
      let none = false;
      for (const t of r.turns) {
        const s = t.turn.shape;
        if (!s) {
          none = true;
          continue;
        }
        add(s.cell);
        const tag = (s.kind === "raise" ? "+" : "\u2212") + s.cell;
        if (!shapes.includes(tag)) shapes.push(tag);
      }
      const ph = projectHtn(p);
      if (!r.count) text = `No legal turn begins with ${ph}.`;
      else
        text =
          `${r.count} legal turns begin with ${ph}. Highlighted: the ${cells.length} cells a legal Shape targets` +
          (shapes.length ? ": " + shapes.join(", ") + "." : ".") +
          (none ? " The Shape may also be left out." : "");
    }
    el.highlightNote.hidden = false;
    el.highlightNote.textContent = text;
    say(text.length > 160 ? text.slice(0, text.indexOf(".") + 1) + ` ${cells.length} cells highlighted.` : text);
    await renderBoard({ highlight: cells });
  });

  // "Show legal turns" is an on/off toggle (aria-pressed); off takes the
  // highlights away again.
  function setLegalMode(on) {
    state.legalMode = on;
    el.legal.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function toggleLegal() {
    if (!state.legalMode) {
      setLegalMode(true);
      return refreshLegal();
    }
    setLegalMode(false);
    el.highlightNote.hidden = true;
    el.highlightNote.replaceChildren();
    say("Legal turns no longer shown.");
    return renderBoard(state.verdict ? { turn: el.htn.value.trim() } : {});
  }

  // --------------------------------------------------------------- games --

  function newGame(startHpn) {
    return { turns: [], positions: [startHpn], at: 1 };
  }

  // The game's turns in the record, each legal, illegal or not checked, the
  // open one marked; the stepper's buttons; a line on where the game stands.
  function showGame() {
    const g = state.game;
    for (const b of [el.gameFirst, el.gamePrev, el.gameNext, el.gameLast]) b.disabled = true;
    if (!g) {
      el.gameStatus.textContent = "No game: a pasted position's earlier turns are not known.";
      return;
    }
    el.record.replaceChildren(
      ...g.turns.map((t, i) => {
        const legal = i < g.positions.length - 1;
        const checked = i < g.positions.length;
        const mark = legal ? "\u2713 " : checked ? "\u2717 " : "\u00b7 ";
        const word = legal ? "legal" : checked ? "illegal" : "not checked";
        return h(
          "li",
          { "aria-current": i + 1 === g.at ? "step" : null, "data-status": legal ? "legal" : checked ? "illegal" : "not_checked" },
          h("span", { class: legal ? "mark-legal" : checked ? "mark-illegal" : "", "aria-hidden": "true", text: mark }),
          h("code", { text: t }),
          ` (${i % 2 ? "B" : "A"}, ${word})`
        );
      })
    );
    el.recordEmpty.hidden = g.turns.length > 0;
    const last = g.positions.length;
    el.gameFirst.disabled = el.gamePrev.disabled = g.at <= 1;
    el.gameNext.disabled = el.gameLast.disabled = g.at >= last;
    const n = g.turns.length;
    const illegal = last <= n ? ` Turn ${last} is illegal: the game stops there.` : "";
    el.gameStatus.textContent = !n
      ? "A game from the start position: turns played on are added to it."
      : (g.at > n ? `After the last of ${n} turns.` : `Turn ${g.at} of ${n}.`) + illegal;
  }

  // Opens turn k of the game: the position before it, with the game's turn
  // (or ``alt``) checked; k = turns.length + 1 is the position after the last.
  const openGameAt = task(async function (k, alt) {
    const g = state.game;
    if (!g) return false;
    k = Math.max(1, Math.min(k, g.positions.length));
    const ok = await loadPosition(g.positions[k - 1], g.positions.slice(0, k - 1),
      k > g.turns.length ? "The position after the last turn." : `Turn ${k}: the position before it.`);
    if (!ok) return false;
    g.at = k;
    el.result.replaceChildren(h("p", { class: "help", text: "No turn checked yet." }));
    showGame();
    const turn = alt || (k <= g.turns.length ? g.turns[k - 1] : null);
    if (turn) await checkTurn(turn);
    return true;
  });

  // Checks the score sheet's turns in order from the start position, the
  // history kept, up to the first illegal one; then opens turn ``at`` (default:
  // the first illegal turn, or the position after the last).
  const loadGame = task(async function (text, at, alt) {
    let texts;
    try {
      texts = readScoreSheet(text).map((t) => t.text.replace(/[ \t]+/g, " "));
    } catch (err) {
      if (!(err instanceof SheetError)) throw err;
      const why = "Score sheet: " + err.message;
      el.gameStatus.replaceChildren(problemNode(new ApiError(why)));
      say("The game was not loaded: " + why);
      return false;
    }
    if (texts.length > MAX_TURNS) {
      const why = `${texts.length} turns: a game has at most ${MAX_TURNS} half-moves.`;
      el.gameStatus.replaceChildren(problemNode(new ApiError(why)));
      say("The game was not loaded: " + why);
      return false;
    }
    let start;
    try {
      start = (await call("GET", API.start)).hpn;
    } catch (err) {
      el.gameStatus.replaceChildren(problemNode(err));
      return false;
    }
    const positions = [start];
    const turns = [];
    for (let i = 0; i < texts.length; i++) {
      let v;
      try {
        v = await call("POST", API.check, { position: positions[i], turn: texts[i], history: positions.slice(0, i) });
      } catch (err) {
        const e = new ApiError(`Turn ${i + 1} (${texts[i]}): ${err.message}`, err.problem);
        el.gameStatus.replaceChildren(problemNode(e));
        say("The game was not loaded: " + e.message);
        return false;
      }
      turns.push(v.turn);
      if (!v.legal) {
        turns.push(...texts.slice(i + 1));
        break;
      }
      positions.push(v.outcome.hpn);
    }
    resetGame();
    state.game = { turns, positions, at: 1 };
    el.sheet.value = turns.join("\n");
    return openGameAt(at || positions.length, alt);
  });

  // -------------------------------------------------------------- address --

  // The address of the playground's state: ?turns=...&at=n (and turn= when
  // the checked turn is not the game's), or ?position=...(&turn=...), or
  // nothing for the untouched start position.
  function addressQuery() {
    const g = state.game;
    const t = state.checked;
    const embed = EMBED ? 1 : null;
    if (g && g.turns.length) {
      const alt = t && t !== g.turns[g.at - 1] ? t : null;
      return qs({ turns: g.turns.join(";"), at: g.at, turn: alt, embed });
    }
    if (g && !t) return qs({ embed });
    return qs({ position: state.hpn, turn: t, embed });
  }

  function remember(replace) {
    if (!state.hpn) return;
    const q = addressQuery();
    // one leading slash: a path of "//" would make "//?turns=..." an address on another host
    const here = location.pathname.replace(/^\/+/, "/");
    const url = here + (q ? "?" + q : "");
    if (url === location.pathname + location.search) return;
    if (replace) history.replaceState(null, "", url);
    else history.pushState(null, "", url);
  }

  // The state the address names (on opening the page, and on back/forward).
  const restoreFromAddress = task(async function () {
    const q = new URLSearchParams(location.search);
    const turns = q.get("turns");
    const position = q.get("position");
    const turn = q.get("turn");
    const at = q.get("at") && /^\d+$/.test(q.get("at")) ? +q.get("at") : null;
    if (turns !== null) {
      if (state.game && state.game.turns.length && state.game.turns.join(";") === turns)
        return openGameAt(at || state.game.positions.length, turn);
      el.sheet.value = sheetLines(turns);
      return loadGame(turns, at, turn);
    }
    if (position !== null) {
      el.hpn.value = position;
      if (!(await loadPasted(position))) return false;
      if (turn) await checkTurn(turn);
      return true;
    }
    return loadStart();
  });

  // The permalink of what is shown: the game page at the open turn, the
  // verdict page of the checked turn, or the playground at the position.
  function permalink() {
    const g = state.game;
    const t = state.checked;
    const embed = EMBED ? 1 : null;
    let path;
    if (g && g.turns.length && (!t || t === g.turns[g.at - 1])) path = "game?" + qs({ turns: g.turns.join(";"), at: g.at, embed });
    else if (t) path = "check?" + qs({ position: state.hpn, turn: t, embed });
    else path = "?" + qs({ position: state.hpn, embed });
    return new URL(path, document.baseURI).href;
  }

  async function share() {
    if (!state.hpn) return;
    const url = permalink();
    el.shareUrl.href = url;
    el.shareUrl.textContent = url;
    el.shareNote.hidden = false;
    try {
      await navigator.clipboard.writeText(url);
      say("Link copied: " + url);
    } catch (e) {
      say("The browser did not let the page copy the link: select it below and copy it.");
    }
  }

  // User actions change the state, then the address records it.
  function act(fn) {
    return task(async function (...args) {
      await fn.apply(this, args);
      remember(false);
    });
  }

  // --------------------------------------------------------------- wiring --

  function init() {
    el.board = $("board-view");
    el.posStatus = $("position-status");
    el.posFacts = $("position-facts");
    el.hpn = $("hpn");
    el.htn = $("htn");
    el.hint = $("step-hint");
    el.parts = $("turn-parts");
    el.result = $("result");
    el.message = $("message");
    el.validation = $("validation");
    el.highlightNote = $("highlight-note");
    el.record = $("record");
    el.recordEmpty = $("record-empty");
    el.check = $("check");
    el.clear = $("clear");
    el.legal = $("legal");
    el.play = $("play");
    el.sheet = $("sheet");
    el.gameStatus = $("game-status");
    el.gameFirst = $("game-first");
    el.gamePrev = $("game-prev");
    el.gameNext = $("game-next");
    el.gameLast = $("game-last");
    el.shareUrl = $("share-url");
    el.shareNote = $("share-note");
    for (const b of [el.check, el.clear, el.legal, el.gameFirst, el.gamePrev, el.gameNext, el.gameLast]) b.disabled = true;
    if (EMBED) document.body.classList.add("embed");
    // the Position panel is folded on narrow screens, open beside the board on wide ones
    if (window.matchMedia("(min-width: 881px)").matches) $("position-panel").open = true;

    el.board.addEventListener("click", (e) => {
      const g = e.target.closest && e.target.closest("g.cell[data-cell]");
      if (!g) return;
      setRoving(g.dataset.cell);
      activate(g.dataset.cell);
    });
    el.board.addEventListener("keydown", (e) => {
      const g = e.target.closest && e.target.closest("g.cell[data-cell]");
      if (!g) return;
      if (e.key === "Enter" || e.key === " " || e.key === "Spacebar") {
        e.preventDefault();
        activate(g.dataset.cell);
      } else if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(e.key)) {
        e.preventDefault();
        focusCell(neighbourFor(g.dataset.cell, e.key));
      }
    });
    el.board.addEventListener("focusin", (e) => {
      const g = e.target.closest && e.target.closest("g.cell[data-cell]");
      if (g) setRoving(g.dataset.cell);
    });

    $("position-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = el.hpn.value.trim();
      if (!text) {
        say("Paste a position in HPN first.");
        return;
      }
      act(loadPasted)(text);
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
    const step = (to) => act(() => state.game && openGameAt(to(state.game)));
    el.gameFirst.addEventListener("click", step(() => 1));
    el.gamePrev.addEventListener("click", step((g) => g.at - 1));
    el.gameNext.addEventListener("click", step((g) => g.at + 1));
    el.gameLast.addEventListener("click", step((g) => g.positions.length));
    $("share").addEventListener("click", share);
    window.addEventListener("popstate", () => restoreFromAddress());
    el.clear.addEventListener("click", clearTurn);
    el.legal.addEventListener("click", toggleLegal);
    el.play.addEventListener("click", act(playOn));
    el.htn.addEventListener("input", () => takeTypedTurn(true));
    for (const r of document.querySelectorAll('input[name="shape-kind"]')) {
      r.addEventListener("change", () => {
        if (state.shape) state.shape = { kind: shapeKind(), cell: state.shape.cell };
        turnChanged();
      });
    }
    for (const r of document.querySelectorAll('input[name="echo-kind"]')) {
      r.addEventListener("change", () => {
        const k = echoKind();
        if (k === "none") state.echo = null;
        else if (state.echo) state.echo = { kind: k, cell: state.echo.cell };
        turnChanged();
      });
    }
    restoreFromAddress().then((ok) => {
      if (ok) remember(true); // the address, written the canonical way
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  // For the tests that hold the reader equal to the server's (and for a console).
  window.HexodicPlayground = Object.freeze({ readScoreSheet });
})();
