/* Calls to the service and the problems it answers.
 *
 * The playground asks the server one thing: its view (POST v1/render/view,
 * docs/api.md), which reads every text (HPN, HTN, score sheets), judges and
 * draws.  A problem answer (RFC 9457) is shown as the server words it.  While
 * a call is in flight body[data-busy] is set (tests and scripts wait for it
 * to clear).  Every URL is relative to the page, so the page works offline and
 * behind a path prefix. */

export const VIEW = "v1/render/view";

export class ApiError extends Error {
  constructor(message, problem) {
    super(message);
    this.problem = problem || null;
  }
}

/** The one line a problem answer says: its title and detail. */
export function problemLine(problem, status) {
  if (!problem) return `The service answered ${status}.`;
  return (problem.title || "Error") + ": " + (problem.detail || "");
}

/** The problem's items ([{path?, rule?, message}]) as [label, message] pairs. */
export function problemItems(problem) {
  const errors = problem && Array.isArray(problem.errors) ? problem.errors : [];
  return errors.map((e) => [e.rule || e.path || "", e.message || ""]);
}

/** Whether the problem names the request's field ``name`` (a 422 of the body). */
export function names(err, name) {
  const errors = err && err.problem && Array.isArray(err.problem.errors) ? err.problem.errors : [];
  return errors.some((e) => e.path === name);
}

/** POST ``body`` as JSON to ``url``; the answer's JSON, or an ApiError. */
export async function call(url, body, fetcher = globalThis.fetch) {
  const opts = {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let res;
  try {
    res = await fetcher(url, opts);
  } catch (e) {
    throw new ApiError("The service did not answer (" + e.message + ").");
  }
  const type = res.headers.get("Content-Type") || "";
  if (res.ok) return res.json();
  let problem = null;
  if (type.includes("json")) {
    try {
      problem = await res.json();
    } catch (e) {
      problem = null;
    }
  }
  throw new ApiError(problemLine(problem, res.status), problem);
}

/** An element, its attributes (class, text, or any other) and children. */
export function h(tag, attrs, ...children) {
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

/** A problem as the page shows it: an alert with its title and each item (or its detail, without items). */
export function problemNode(err) {
  const box = h("div", { class: "problem", role: "alert" });
  const items = problemItems(err.problem);
  box.append(h("p", {}, h("strong", { text: "Error: " }), items.length ? err.problem.title || err.message : err.message));
  if (items.length) {
    const ul = h("ul");
    for (const [where, message] of items) {
      const rule = err.problem.errors.find((e) => e.rule === where) ? where : null;
      ul.append(h("li", { "data-rule": rule }, where ? h("code", { text: where }) : null, where ? " " : null, message));
    }
    box.append(ul);
  }
  return box;
}

let pending = 0;

/** One more (or one fewer) piece of work in flight. */
export function busy(delta) {
  pending += delta;
  if (pending > 0) document.body.dataset.busy = "true";
  else delete document.body.dataset.busy;
}

/** ``fn`` marked busy while it runs. */
export function task(fn) {
  return async function (...args) {
    busy(1);
    try {
      return await fn.apply(this, args);
    } finally {
      busy(-1);
    }
  };
}
