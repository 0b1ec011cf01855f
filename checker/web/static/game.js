/* The game: which view the address names, the record of the turns, stepping
 * through them, what Play on does to them, and the address itself.
 *
 * The address holds the state, so reload, back/forward and copying it work:
 * ?position=<HPN>&turn=<HTN>, or ?turns=<HTN>;<HTN>;...&at=<n>.  The server
 * writes it (its view's ``address``); here it is only read back, as the
 * request of the view it names. */

/** The view the address names: {where, extra} for the view request
 * (``where``: the game or the position; ``extra``: the turn to check). */
export function fromAddress(search) {
  const q = new URLSearchParams(search);
  const turn = q.get("turn");
  const at = Number(q.get("at"));
  if (q.get("turns") !== null) {
    const where = { turns: q.get("turns") };
    if (Number.isInteger(at) && at >= 1) where.at = at;
    return { where, extra: turn ? { turn, check: true } : { check: true } };
  }
  if (q.get("position") !== null) return { where: { position: q.get("position") }, extra: turn ? { turn, check: true } : {} };
  return { where: {}, extra: {} };
}

/** Where the view's answer is, for the next requests: its game's turns and
 * turn number, or its position and history. */
export function whereOf(answer) {
  const g = answer.game;
  if (g && g.turns.length) return { turns: g.turns.map((t) => t.htn), at: g.at };
  return { position: answer.position.hpn, history: answer.history };
}

/** The turn number a stepper button opens: "first", "prev", "next" or "last". */
export function stepAt(game, which) {
  const at = { first: 1, prev: game.at - 1, next: game.at + 1, last: game.last }[which];
  return Math.max(1, Math.min(at, game.last));
}

/** Which stepper buttons are off at the game's turn. */
export function stepper(game) {
  const none = !game || !game.turns.length;
  return {
    first: none || game.at <= 1,
    prev: none || game.at <= 1,
    next: none || game.at >= game.last,
    last: none || game.at >= game.last,
  };
}

/** The game after Play on of ``played`` (HTN, the server's) at the open turn:
 * the game goes on when it is the game's own turn there, otherwise it takes the
 * place of the rest.  {turns, at, replaced}. */
export function playedOn(game, played) {
  const turns = game.turns.map((t) => t.htn);
  const k = game.at;
  if (turns[k - 1] === played && k < game.last) return { turns, at: k + 1, replaced: false };
  return { turns: turns.slice(0, k - 1).concat([played]), at: k + 1, replaced: k <= turns.length };
}

const MARK = { legal: "\u2713 ", illegal: "\u2717 ", not_checked: "\u00b7 " };
const WORD = { legal: "legal", illegal: "illegal", not_checked: "not checked" };

/** The record's items: [{text, mover, status, mark, word, current}]. */
export function recordItems(game) {
  return game.turns.map((t) => ({
    text: t.htn,
    mover: t.mover,
    status: t.status,
    mark: MARK[t.status],
    word: WORD[t.status],
    current: t.n === game.at,
  }));
}

/** The record of the game's turns, each legal, illegal or not checked, the open one marked. */
export function showRecord(list, game, h) {
  list.replaceChildren(
    ...recordItems(game).map((r) =>
      h(
        "li",
        { "aria-current": r.current ? "step" : null, "data-status": r.status },
        h("span", { class: r.status === "legal" ? "mark-legal" : r.status === "illegal" ? "mark-illegal" : "", "aria-hidden": "true", text: r.mark }),
        h("code", { text: r.text }),
        ` (${r.mover}, ${r.word})`,
      ),
    ),
  );
}

/** The address bar set to the view's address (pushed as a new entry, or replacing the current one). */
export function remember(address, replace, where = globalThis.location, hist = globalThis.history) {
  // one leading slash: a path of "//" would make "//?turns=..." an address on another host
  const url = where.pathname.replace(/^\/+/, "/") + address;
  if (url === where.pathname + where.search) return;
  if (replace) hist.replaceState(null, "", url);
  else hist.pushState(null, "", url);
}
