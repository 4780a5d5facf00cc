// The analysis board and game review of scrabble serve: plain JavaScript
// over the JSON API of docs/api.md, nothing from other hosts.
"use strict";

const N = 15;
const $ = (id) => document.getElementById(id);

// Premium squares, by symmetry from one quarter of the board.
const premium = (() => {
  const p = new Array(N * N).fill("");
  const quarter = {
    tw: [[0, 0], [0, 7], [7, 0]],
    dw: [[1, 1], [2, 2], [3, 3], [4, 4], [7, 7]],
    tl: [[1, 5], [5, 1], [5, 5]],
    dl: [[0, 3], [2, 6], [3, 0], [3, 7], [6, 2], [6, 6], [7, 3]],
  };
  for (const [kind, squares] of Object.entries(quarter)) {
    for (const [r, c] of squares) {
      for (const [rr, cc] of [[r, c], [r, N - 1 - c], [N - 1 - r, c], [N - 1 - r, N - 1 - c], [c, r], [c, N - 1 - r], [N - 1 - c, r], [N - 1 - c, N - 1 - r]]) {
        p[rr * N + cc] = kind;
      }
    }
  }
  return p;
})();
const markText = { tw: "3W", dw: "2W", tl: "3L", dl: "2L" };

// makeBoard fills el with 225 squares and returns them.
function makeBoard(el, onClick) {
  const cells = [];
  for (let i = 0; i < N * N; i++) {
    const d = document.createElement("div");
    d.className = "sq " + premium[i];
    d.dataset.i = i;
    d.setAttribute("role", "gridcell");
    if (onClick) {
      d.addEventListener("mousedown", (e) => e.preventDefault()); // the typing input keeps the focus
      d.addEventListener("click", () => onClick(i));
    }
    el.appendChild(d);
    cells.push(d);
  }
  return cells;
}

// drawBoard shows tiles (225 strings: "" empty, "A" a tile, "a" a
// blank) on cells, with overlays: {i: class} for squares to mark and
// {i: letter} for tiles previewed.
function drawBoard(cells, tiles, preview, previewClass, marks) {
  for (let i = 0; i < N * N; i++) {
    const d = cells[i];
    let t = tiles[i];
    let cls = "sq " + premium[i];
    if (!t && preview && preview[i]) {
      t = preview[i];
      cls += " " + previewClass;
    }
    if (t) {
      cls += " tile";
      if (t !== t.toUpperCase()) cls += " blank";
      d.textContent = t.toUpperCase();
    } else {
      d.textContent = "";
      if (premium[i] && i !== 112) {
        const m = document.createElement("span");
        m.className = "mark";
        m.textContent = markText[premium[i]];
        d.appendChild(m);
      }
    }
    if (marks && marks[i]) cls += " " + marks[i];
    d.className = cls;
    d.setAttribute("aria-label", (t ? t : "empty") + " " + (Math.floor(i / N) + 1) + String.fromCharCode(65 + (i % N)));
  }
}

// moveSquares lays a described play (row, col 1-based, dir, word) on
// tiles: {i: letter} for the squares it fills.
function moveSquares(m, tiles) {
  const out = {};
  if (!m || m.kind !== "play" || !m.word) return out;
  const dr = m.dir === "down" ? 1 : 0, dc = m.dir === "down" ? 0 : 1;
  let r = m.row - 1, c = m.col - 1;
  for (const ch of m.word) {
    if (r >= N || c >= N) break;
    const i = r * N + c;
    if (!tiles[i]) out[i] = ch;
    r += dr; c += dc;
  }
  return out;
}

async function postJSON(path, body, signal) {
  const resp = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": typeof body === "string" ? "text/plain" : "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal,
  });
  let data;
  try {
    data = await resp.json();
  } catch (e) {
    throw new Error("the server answered " + resp.status + " without JSON");
  }
  if (!resp.ok) throw new Error(data.error || "status " + resp.status);
  return data;
}

function fmt(x, digits) {
  return typeof x === "number" ? x.toFixed(digits) : "";
}

// ---------------------------------------------------------------- analysis

const A = {
  tiles: new Array(N * N).fill(""),
  cursor: -1,
  down: false,
  cells: null,
  moves: [],
  selected: -1,
  extra: "", // CGP opcodes kept from a loaded position
  opp: "", // and the other players' racks ("B/C" for three players)
  moreScores: [], // the scores of a third and fourth player
  zero: 0,
  abort: null,
  lastPV: null,
};

function setStatus(el, text, isError) {
  el.textContent = text;
  el.classList.toggle("error", !!isError);
}

function redraw() {
  const m = A.selected >= 0 ? A.moves[A.selected] : null;
  const preview = m ? moveSquares(typeof m.move === "object" ? m.move : m, A.tiles) : null;
  const marks = {};
  if (A.cursor >= 0) marks[A.cursor] = "cursor " + (A.down ? "down" : "across");
  drawBoard(A.cells, A.tiles, preview, "preview", marks);
  $("cgp").value = toCGP();
}

// toCGP writes the board, rack, scores and kept opcodes as one CGP line.
function toCGP() {
  const rows = [];
  for (let r = 0; r < N; r++) {
    let s = "", empty = 0;
    for (let c = 0; c < N; c++) {
      const t = A.tiles[r * N + c];
      if (!t) { empty++; continue; }
      if (empty) { s += empty; empty = 0; }
      s += t;
    }
    if (empty) s += empty;
    rows.push(s);
  }
  const rack = $("rack").value.toUpperCase().replace(/[^A-Z?]/g, "");
  const s0 = parseInt($("score0").value, 10) || 0, s1 = parseInt($("score1").value, 10) || 0;
  const more = A.moreScores.length ? "/" + A.moreScores.join("/") : "";
  let cgp = rows.join("/") + " " + rack + "/" + A.opp + " " + s0 + "/" + s1 + more + " " + A.zero;
  if (A.extra) cgp += " " + A.extra;
  return cgp;
}

// fromCGP reads a CGP line's board, first rack, scores and zero-turn count
// into the page; the server checks the rest.
function fromCGP(line) {
  const f = line.trim().split(/\s+/);
  const rows = (f[0] || "").split("/");
  if (rows.length !== N) throw new Error("the board has " + rows.length + " rows; a CGP board has 15");
  const tiles = [];
  rows.forEach((row, r) => {
    const re = /(\d+)|([A-Za-z])/g;
    let m, n = 0;
    while ((m = re.exec(row))) {
      if (m[1]) { for (let k = 0; k < +m[1]; k++) tiles.push(""); n += +m[1]; }
      else { tiles.push(m[2]); n++; }
    }
    if (n !== N) throw new Error("row " + (r + 1) + " has " + n + " squares");
  });
  A.tiles = tiles;
  const racks = (f[1] || "").split("/");
  $("rack").value = racks[0] || "";
  A.opp = racks.slice(1).join("/"); // the other players' racks, kept as they are
  if (f[2]) {
    const sc = f[2].split("/");
    $("score0").value = parseInt(sc[0], 10) || 0;
    $("score1").value = parseInt(sc[1], 10) || 0;
    A.moreScores = sc.slice(2).map((x) => parseInt(x, 10) || 0); // a third and fourth player's
  } else {
    A.moreScores = [];
  }
  A.zero = parseInt(f[3], 10) || 0;
  A.extra = f.slice(4).join(" ");
}

function onSquare(i) {
  if (A.cursor === i) A.down = !A.down;
  A.cursor = i;
  A.selected = -1;
  redraw();
  // A hidden input takes the typing, so that a phone shows its keyboard.
  $("boardinput").focus({ preventScroll: true });
}

function step(back) {
  if (A.cursor < 0) return;
  let r = Math.floor(A.cursor / N), c = A.cursor % N;
  const d = back ? -1 : 1;
  if (A.down) r += d; else c += d;
  if (r >= 0 && r < N && c >= 0 && c < N) A.cursor = r * N + c;
}

function boardKey(e) {
  A.keyed = false;
  if (A.cursor < 0) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key;
  if (/^[a-zA-Z]$/.test(k)) {
    A.tiles[A.cursor] = e.shiftKey ? k.toLowerCase() : k.toUpperCase();
    step(false);
    A.keyed = true; // the input event that may follow is the same letter
  } else if (k === "Backspace") {
    if (!A.tiles[A.cursor]) step(true);
    A.tiles[A.cursor] = "";
  } else if (k === "Delete") {
    A.tiles[A.cursor] = "";
  } else if (k === " ") {
    A.down = !A.down;
  } else if (k.startsWith("Arrow")) {
    const r = Math.floor(A.cursor / N), c = A.cursor % N;
    const [dr, dc] = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[k];
    if (r + dr >= 0 && r + dr < N && c + dc >= 0 && c + dc < N) A.cursor = (r + dr) * N + c + dc;
  } else if (k === "Escape") {
    A.cursor = -1;
  } else {
    return;
  }
  e.preventDefault();
  A.selected = -1;
  redraw();
}

// showMoves lists moves in the table; cols are [header, field, digits].
function showMoves(moves, cols) {
  A.moves = moves;
  A.selected = -1;
  const head = $("movehead");
  head.textContent = "";
  for (const [h, , digits] of [["#"], ["Move"], ...cols]) {
    const th = document.createElement("th");
    th.textContent = h;
    if (digits !== undefined || h === "#") th.className = "num";
    head.appendChild(th);
  }
  const body = $("movelist");
  body.textContent = "";
  moves.forEach((m, i) => {
    const tr = document.createElement("tr");
    const mv = m.move && typeof m.move === "object" ? m.move : m;
    const cells = [[String(i + 1), "num"], [mv.move, ""]];
    for (const [, field, digits] of cols) {
      const v = typeof field === "function" ? field(m) : m[field] ?? mv[field];
      cells.push([digits !== undefined ? fmt(v, digits) : (v === "" ? "-" : String(v ?? "")), digits !== undefined ? "num" : ""]);
    }
    for (const [text, cls] of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.appendChild(td);
    }
    tr.addEventListener("click", () => {
      A.selected = A.selected === i ? -1 : i;
      for (const row of body.children) row.classList.remove("selected");
      if (A.selected >= 0) tr.classList.add("selected");
      redraw();
    });
    body.appendChild(tr);
  });
  redraw();
}

const staticCols = [["Score", "score", 0], ["Equity", "equity", 1], ["Leave", "leave"]];

function busy(on) {
  for (const id of ["best", "moves", "sim", "endgame", "peg"]) $(id).disabled = on;
  $("stop").disabled = !on;
  $("progress").hidden = true;
}

function request(extra) {
  return Object.assign({ cgp: toCGP() }, extra);
}

// inferring adds the infer box's choice to a sim's or pre-endgame's request.
function inferring(extra) {
  return $("infer").checked ? Object.assign({ infer: true }, extra) : extra;
}

// inferredNote says which move the opponent's tiles were inferred from.
function inferredNote(d) {
  return d.inferred_from ? " The opponent's tiles inferred from their last move " + d.inferred_from + "." : "";
}

async function run(what, fn) {
  const st = $("status");
  if (A.abort) A.abort.abort();
  A.abort = new AbortController();
  $("pv").textContent = "";
  busy(true);
  setStatus(st, what + "…");
  try {
    await fn(A.abort.signal, st);
  } catch (e) {
    if (e.name === "AbortError") setStatus(st, what + ": stopped");
    else setStatus(st, what + ": " + e.message, true);
  } finally {
    busy(false);
    A.abort = null;
  }
}

async function doBest(all) {
  await run(all ? "All moves" : "Best moves", async (signal, st) => {
    const d = await postJSON(all ? "api/moves" : "api/best", request(all ? {} : { top: 30 }), signal);
    showMoves(d.moves, staticCols);
    const shown = d.moves.length < d.count ? " (" + d.moves.length + " shown)" : "";
    if (!d.moves.length) setStatus(st, "No move: the rack is empty?");
    else setStatus(st, (all ? "" : "Best: " + d.moves[0].move + ", equity " + fmt(d.moves[0].equity, 1) + ". ") + d.count + " moves" + shown + ", rack " + d.rack + ", " + d.bag + " in the bag, " + d.lexicon + ".");
  });
}

// readEvents calls each(name, data) for the server-sent events of a
// fetch response.
async function readEvents(resp, each) {
  const reader = resp.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let k;
    while ((k = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, k);
      buf = buf.slice(k + 2);
      let name = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      each(name, JSON.parse(data));
    }
  }
}

const simCols = [["Score", "score", 0], ["Sim eq.", "sim_equity", 1], ["± ", "sim_equity_se", 1], ["Win %", "win_pct", 1], ["Iter.", "iterations", 0], ["Leave", "leave"]];

async function doSim() {
  const time = $("simtime").value;
  const seconds = parseFloat(time);
  await run("Simulation", async (signal, st) => {
    const resp = await fetch("api/sim", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(request(inferring({ time }))),
      signal,
    });
    if (!resp.ok) {
      let msg = "status " + resp.status;
      try { msg = (await resp.json()).error || msg; } catch (e) { /* not JSON */ }
      throw new Error(msg);
    }
    $("progress").hidden = false;
    let result = null;
    await readEvents(resp, (name, d) => {
      if (name === "progress") {
        $("progressbar").style.width = Math.min(100, (100 * d.seconds) / seconds) + "%";
        setStatus(st, "Simulating: " + d.iterations + " iterations, leader " + d.leader.move + " (" + fmt(d.leader_sim_equity, 1) + "), " + d.live + " in the race");
      } else if (name === "result") {
        result = d;
      } else if (name === "error") {
        throw new Error(d.error);
      }
    });
    $("progress").hidden = true;
    if (!result) throw new Error("the simulation ended without a result");
    showMoves(result.candidates, simCols);
    const b = result.candidates[0];
    setStatus(st, "Simulated " + result.iterations + " iterations in " + fmt(result.seconds, 1) + " s (" + result.stopped + "): best " + (b ? b.move + ", win " + fmt(b.win_pct, 1) + "%" : "none") + "." + inferredNote(result));
  });
}

async function doEndgame() {
  await run("Endgame", async (signal, st) => {
    const d = await postJSON("api/endgame", request({ time: $("simtime").value, top: 10 }), signal);
    const ranked = d.ranked && d.ranked.length ? d.ranked : [{ move: d.best, value: d.value }];
    showMoves(ranked, [["Value", "value", 0], ["Score", (m) => m.move.score, 0], ["Leave", (m) => m.move.leave]]);
    setStatus(st, "Endgame: " + d.best.move + ", value " + (d.value > 0 ? "+" : "") + d.value + ", final spread " + d.final_spread + (d.proven ? " (solved exactly)" : " (best at depth " + d.depth + ", not proven)") + ".");
    const pv = $("pv");
    for (const s of d.pv) {
      const li = document.createElement("li");
      li.textContent = (s.player === "mover" ? "You" : "Opponent") + " (" + s.rack + "): " + s.move.move + " " + s.move.score + (s.end ? ", " + s.end : "");
      pv.appendChild(li);
    }
  });
}

async function doPEG() {
  await run("Pre-endgame", async (signal, st) => {
    const d = await postJSON("api/peg", request(inferring({ time: $("simtime").value, top: 10 })), signal);
    // With inference the counts are in draw units: a draw can count for a fraction.
    const unit = d.draw_unit || 1;
    const count = (n) => (unit === 1 ? String(n) : fmt(n / unit, 2));
    showMoves(d.candidates, [["Win %", "win_pct", 1], ["Spread", "mean_spread", 1], ["W-T-L", (c) => count(c.wins) + "-" + count(c.ties) + "-" + count(c.losses)], ["Score", (c) => c.move.score, 0]]);
    setStatus(st, (d.best ? "Pre-endgame: " + d.best.move.move + ", wins " + fmt(d.best.win_pct, 1) + "% of the draws" + (d.proven ? "." : " (not proven: " + d.stopped + ").") : "Pre-endgame: no candidate settled within the time (" + d.moves + " moves, unseen " + d.unseen + ").") + inferredNote(d));
  });
}

function initAnalyze() {
  A.cells = makeBoard($("board"), onSquare);
  const bi = $("boardinput");
  bi.addEventListener("keydown", boardKey);
  // Phone keyboards send letters as input, not as key presses.
  bi.addEventListener("input", () => {
    const ch = bi.value.slice(-1);
    bi.value = "";
    if (A.keyed) { A.keyed = false; return; }
    if (A.cursor < 0 || !/^[a-zA-Z]$/.test(ch)) return;
    A.tiles[A.cursor] = ch.toUpperCase();
    step(false);
    A.selected = -1;
    redraw();
  });
  bi.addEventListener("blur", () => { A.cursor = -1; redraw(); });
  $("best").addEventListener("click", () => doBest(false));
  $("moves").addEventListener("click", () => doBest(true));
  $("sim").addEventListener("click", doSim);
  $("endgame").addEventListener("click", doEndgame);
  $("peg").addEventListener("click", doPEG);
  $("stop").addEventListener("click", () => A.abort && A.abort.abort());
  $("loadcgp").addEventListener("click", () => {
    try {
      fromCGP($("cgp").value);
      A.selected = -1;
      showMoves([], staticCols);
      setStatus($("status"), "Position loaded.");
    } catch (e) {
      setStatus($("status"), "CGP: " + e.message, true);
    }
  });
  $("cgp").addEventListener("keydown", (e) => { if (e.key === "Enter") $("loadcgp").click(); });
  $("rack").addEventListener("keydown", (e) => { if (e.key === "Enter") doBest(false); });
  for (const id of ["rack", "score0", "score1"]) $(id).addEventListener("input", () => { $("cgp").value = toCGP(); });
  $("clear").addEventListener("click", () => {
    A.tiles.fill("");
    A.extra = "";
    A.opp = "";
    A.moreScores = [];
    A.zero = 0;
    showMoves([], staticCols);
  });
  showMoves([], staticCols);
}

// ------------------------------------------------------------------ review

const R = { rep: null, step: 0, cells: null };

function reviewSteps() {
  return R.rep ? R.rep.turns.length + 1 : 0; // every turn, then the end
}

function boardTiles(rows) {
  const t = [];
  for (const row of rows) for (const ch of row) t.push(ch === "." ? "" : ch);
  return t;
}

function showStep(k) {
  const rep = R.rep;
  if (!rep) return;
  k = Math.max(0, Math.min(reviewSteps() - 1, k));
  R.step = k;
  const end = k === rep.turns.length;
  const t = end ? null : rep.turns[k];
  const rows = end ? rep.boards[rep.boards.length - 1] : rep.boards[t.turn - 1];
  const tiles = boardTiles(rows);
  const best = t && t.best && t.best.length ? t.best[0] : null;
  const marks = {};
  if (best && t.played && best.move !== t.played.move) {
    for (const i of Object.keys(moveSquares(best, tiles))) marks[i] = "best";
  }
  drawBoard(R.cells, tiles, t ? moveSquares(t.played, tiles) : null, "played", marks);
  $("turnno").textContent = end ? "End of the game" : "Turn " + t.turn + " of " + rep.turns.length;
  $("turninfo").hidden = false;
  if (end) {
    $("tplayer").textContent = "Final";
    $("track").textContent = "";
    $("tplayed").textContent = rep.players.map((p, i) => p.nick + " " + rep.computed_final[i]).join(", ");
    $("tscore").textContent = "";
    $("tbest").textContent = "-";
    $("tlost").textContent = "-";
    $("tflags").textContent = "";
    $("ttotals").textContent = "";
    $("toanalyze").hidden = true;
  } else {
    $("toanalyze").hidden = false;
    $("tplayer").textContent = t.player;
    $("track").textContent = t.rack;
    $("tplayed").textContent = t.played.move;
    $("tscore").textContent = "+" + t.score + ", equity " + fmt(t.equity, 1);
    $("tbest").textContent = best ? best.move + " (equity " + fmt(best.equity, 1) + ")" : (t.skipped || "-");
    $("tlost").textContent = t.reviewed ? fmt(t.equity_lost, 1) : "not reviewed";
    $("tflags").textContent = (t.flags || []).join(", ").replace(/_/g, " ");
    $("ttotals").textContent = t.player + "'s total after the turn: " + t.computed_total;
  }
  drawChart();
}

// analyzeTurn loads the position before the review's current turn into
// the analysis board: the board, the mover's rack and the scores before
// the move from the mover's side.
function analyzeTurn() {
  const rep = R.rep;
  if (!rep || R.step >= rep.turns.length) return;
  const t = rep.turns[R.step];
  const mover = rep.players.findIndex((p) => p.nick === t.player);
  const before = (rep.timeline || []).filter((p) => p.turn < t.turn).pop();
  const scores = before ? before.computed : rep.players.map(() => 0);
  const n = rep.players.length;
  // CGP lists the racks and scores from the mover on, in turn order.
  const order = rep.players.map((_, i) => (mover + i) % n);
  A.tiles = boardTiles(rep.boards[t.turn - 1]);
  $("rack").value = t.rack;
  $("score0").value = scores[order[0]] || 0;
  $("score1").value = scores[order[1]] || 0;
  A.moreScores = order.slice(2).map((i) => scores[i] || 0);
  A.opp = "/".repeat(n - 2);
  A.zero = 0;
  A.extra = [/^[A-Za-z0-9_-]+$/.test(rep.lexicon) ? "lex " + rep.lexicon + ";" : "", lastMoveOpcode(rep, R.step)].filter(Boolean).join(" ");
  showMode(false);
  showMoves([], staticCols);
  setStatus($("status"), "The position before turn " + t.turn + " (" + t.player + " to play).");
}

// lastMoveOpcode is the CGP lm opcode of the opponent's move before turn k of
// a two-player game ("8D WO.D", "-ABC", "-", "challenge 8D WO.D" for a play
// taken back), so that the analysis board can infer what they kept; "" when
// there is none.
function lastMoveOpcode(rep, k) {
  const p = rep.turns[k - 1];
  if (!p || rep.players.length !== 2 || p.player === rep.turns[k].player) return "";
  let lm = p.played.move;
  if (p.played.kind === "play") lm = lm.replace(/\(([^)]*)\)/g, (_, run) => ".".repeat(run.length));
  else if (p.played.kind !== "exchange" && p.played.kind !== "pass") return "";
  if ((p.flags || []).includes("withdrawn")) lm = "challenge " + lm;
  return "lm " + lm + ";";
}

function svg(tag, attrs, parent) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// drawChart draws both players' scores (left axis) and the first
// player's win chance (right axis, 0-100%) by turn, the step marked.
function drawChart() {
  const rep = R.rep, ch = $("chart");
  ch.textContent = "";
  const tl = rep.timeline || [];
  if (!tl.length || rep.players.length !== 2) { $("chartfig").hidden = true; return; }
  $("chartfig").hidden = false;
  const W = 400, H = 180, L = 34, Rm = 30, T = 8, B = 20;
  const n = tl.length;
  const maxScore = Math.max(50, ...tl.map((p) => Math.max(p.computed[0], p.computed[1])));
  const x = (i) => L + ((W - L - Rm) * i) / Math.max(1, n);
  const ys = (v) => H - B - ((H - T - B) * v) / maxScore;
  const yw = (p) => H - B - (H - T - B) * p;
  svg("line", { x1: L, y1: H - B, x2: W - Rm, y2: H - B, stroke: "#999" }, ch);
  for (const v of [0, Math.round(maxScore / 2), maxScore]) {
    svg("text", { x: L - 4, y: ys(v) + 4, "text-anchor": "end", "font-size": 10, fill: "#666" }, ch).textContent = v;
  }
  for (const p of [0, 50, 100]) {
    svg("text", { x: W - Rm + 4, y: yw(p / 100) + 4, "font-size": 10, fill: "#4f9fd0" }, ch).textContent = p + "%";
  }
  const line = (pts, color, dash) => svg("polyline", { points: pts.map(([a, b]) => a.toFixed(1) + "," + b.toFixed(1)).join(" "), fill: "none", stroke: color, "stroke-width": 2, "stroke-dasharray": dash || "" }, ch);
  for (const [p, color] of [[0, "#2d6a4f"], [1, "#c0392b"]]) {
    line([[x(0), ys(0)], ...tl.map((pt, i) => [x(i + 1), ys(pt.computed[p])])], color);
  }
  if (rep.win_prob && rep.win_prob.length) {
    line(rep.win_prob.map((w, i) => [x(i), yw(w)]), "#4f9fd0", "4 3");
  }
  svg("text", { x: L, y: H - 4, "font-size": 10, fill: "#666" }, ch).textContent = "turn";
  const cx = x(R.step);
  svg("line", { x1: cx, y1: T, x2: cx, y2: H - B, stroke: "#333", "stroke-width": 1 }, ch);
}

function showSummary(rep) {
  const el = $("summary");
  el.textContent = "";
  const table = document.createElement("table");
  const head = document.createElement("tr");
  for (const h of ["Player", "Turns", "Equity lost", "a turn", "Best moves", "Missed bingos"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  table.appendChild(head);
  for (const p of rep.summary.players) {
    const tr = document.createElement("tr");
    for (const v of [p.player, p.turns, fmt(p.equity_lost, 1), fmt(p.mean_equity_lost, 2), p.best_moves, p.missed_bingos]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  el.appendChild(table);
}

async function doReview() {
  const st = $("rstatus");
  const text = $("gcgtext").value;
  if (!text.trim()) { setStatus(st, "Open a GCG file or paste a game first.", true); return; }
  setStatus(st, "Reviewing…");
  $("doreview").disabled = true;
  try {
    const rep = await postJSON("api/review", text);
    R.rep = rep;
    const names = rep.players.map((p) => p.nick);
    $("name0").textContent = names[0] || "";
    $("name1").textContent = names[1] || "";
    $("namew").textContent = names[0] || "";
    setStatus(st, "Reviewed " + rep.turns.length + " turns (" + rep.lexicon + ", " + rep.evaluation + ")" + (rep.problems.length ? "; " + rep.problems.length + " problems in the file" : "") +
      (rep.interrupted_at_turn ? "; the time limit stopped it at turn " + rep.interrupted_at_turn : "") + ".");
    showSummary(rep);
    showStep(0);
  } catch (e) {
    setStatus(st, "Review: " + e.message, true);
  } finally {
    $("doreview").disabled = false;
  }
}

function initReview() {
  R.cells = makeBoard($("rboard"), null);
  drawBoard(R.cells, new Array(N * N).fill(""), null, "", null);
  $("gcgfile").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    if (f.size > 1 << 20) { setStatus($("rstatus"), "The file is over 1 MB: not a game.", true); return; }
    $("gcgtext").value = await f.text();
    doReview();
  });
  $("doreview").addEventListener("click", doReview);
  $("toanalyze").addEventListener("click", analyzeTurn);
  $("first").addEventListener("click", () => showStep(0));
  $("prev").addEventListener("click", () => showStep(R.step - 1));
  $("next").addEventListener("click", () => showStep(R.step + 1));
  $("last").addEventListener("click", () => showStep(reviewSteps() - 1));
  $("chart").addEventListener("click", (e) => {
    const box = $("chart").getBoundingClientRect();
    const n = R.rep ? R.rep.timeline.length : 0;
    const fx = ((e.clientX - box.left) / box.width) * 400;
    const k = Math.round(((fx - 34) / (400 - 34 - 30)) * Math.max(1, n));
    showStep(k);
  });
  document.addEventListener("keydown", (e) => {
    if ($("review").hidden || !R.rep) return;
    if (e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement) return;
    if (e.key === "ArrowLeft") { showStep(R.step - 1); e.preventDefault(); }
    else if (e.key === "ArrowRight") { showStep(R.step + 1); e.preventDefault(); }
    else if (e.key === "Home") { showStep(0); e.preventDefault(); }
    else if (e.key === "End") { showStep(reviewSteps() - 1); e.preventDefault(); }
  });
}

// -------------------------------------------------------------------- tabs

function showMode(review) {
  $("analyze").hidden = review;
  $("review").hidden = !review;
  $("tab-analyze").classList.toggle("active", !review);
  $("tab-review").classList.toggle("active", review);
  history.replaceState(null, "", review ? "#review" : "#");
}

document.addEventListener("DOMContentLoaded", async () => {
  initAnalyze();
  initReview();
  $("tab-analyze").addEventListener("click", () => showMode(false));
  $("tab-review").addEventListener("click", () => showMode(true));
  showMode(location.hash === "#review");
  try {
    const info = await (await fetch("api/info")).json();
    $("lexicon").textContent = info.lexicon ? "lexicon " + info.lexicon : info.lexicon_error || "";
  } catch (e) {
    $("lexicon").textContent = "the server does not answer";
  }
});
