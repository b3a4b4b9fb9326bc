// cf serve: the page's script. Every text from the game file is put in the page as text
// (textContent, never innerHTML). The server checks everything; this only gathers a round.
// Every word it shows comes from the server in the page's language (cf-texts, and the
// "shown" messages of the JSON it asks for with ?lang=): it translates nothing itself.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var config = JSON.parse($("cf-config").textContent);
  var state = JSON.parse($("cf-state").textContent);
  var texts = JSON.parse($("cf-texts").textContent);
  var query = "?t=" + encodeURIComponent(config.token);
  var lang = "lang=" + encodeURIComponent(config.lang);
  var fixing = null;   // the round being fixed, or null: the next round is entered
  var form = {};       // player -> {mode, score, tiles: [], photo}
  var formKey = null;  // what the form was built for (players, round)
  var undoArmed = null;
  var posting = false; // a write of this page is on its way: its answer brings the state

  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "cls") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    for (var i = 2; i < arguments.length; i++) if (arguments[i]) node.appendChild(arguments[i]);
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  // ``text`` as the content of ``node``, each tile in it (10-10) kept whole on one line.
  function withTiles(node, text) {
    clear(node);
    String(text).split(/(\b\d+-\d+\b)/).forEach(function (part, i) {
      if (i % 2) node.appendChild(el("span", { cls: "tile-text", text: part }));
      else if (part) node.appendChild(document.createTextNode(part));
    });
  }

  // The page's words, {name} filled in from params.
  function t(key, params) {
    return texts[key].replace(/\{(\w+)\}/g, function (m, name) {
      return params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m;
    });
  }

  // A message of the JSON as the reader reads it: its "shown" version, else the English.
  function said(data, key) {
    return data && data.shown && data.shown[key] != null ? data.shown[key] : data[key];
  }

  // The lines of the problems in data: shown, else the English.
  function problemLines(data) {
    if (data.shown && data.shown.problems) return data.shown.problems;
    return (data.problems || []).map(function (p) { return p.text; });
  }

  // --- the scoreboard, as cf add prints it -------------------------------------------
  function renderBoard() {
    var board = state.scoreboard;
    var body = $("scoreboard").tBodies[0];
    clear(body);
    if (!board) { $("footer").textContent = said(state, "error") || ""; return; }
    var marked = board.rounds_played > 0;
    // the column of the last round played: none before the first
    $("round-head").textContent = marked ? t("round_head", { round: board.rounds_played }) : "";
    board.standings.forEach(function (r) {
      var top = marked && r.rank === 1;
      var tr = el("tr", { cls: top ? "top" : "", "data-player": r.player },
        el("td", { text: String(r.rank) }),
        el("td", { cls: "name", text: r.player + (top ? "\u00a0*" : "") }),  // the star never on a line alone
        el("td", { text: r.this_round === null ? "" : String(r.this_round) }),
        el("td", { cls: "total", text: String(r.total) }),
        el("td", { cls: r.movement > 0 ? "up" : r.movement < 0 ? "down" : "", text: r.move }));
      body.appendChild(tr);
    });
    withTiles($("footer"), said(state, "footer") || board.footer);
  }

  function over() {
    var b = state.scoreboard;
    return !!(b && b.complete && b.rounds_played);
  }

  function renderBanner() {
    var banner = $("banner");
    banner.hidden = !over();
    if (over()) banner.textContent = said(state, "footer") || state.scoreboard.footer;
    var problems = $("problems");
    clear(problems);
    var lines = problemLines(state).slice();
    if (state.error) lines.unshift(said(state, "error"));
    problems.hidden = !lines.length;
    if (lines.length) {
      problems.appendChild(el("h2", { text: t("problems") }));
      lines.forEach(function (t) { problems.appendChild(el("p", { text: t })); });
    }
  }

  function renderChart() {
    var played = state.scoreboard ? state.scoreboard.rounds_played : 0;
    $("chart-card").hidden = !played;
    if (played) $("chart").src = "chart.svg" + query + "&" + lang + "&v=" + encodeURIComponent(state.version);
  }

  // --- entering a round -----------------------------------------------------------------
  function tilesOfSet(top) {
    var rows = [];
    for (var a = top; a >= 0; a--) {
      var row = [];
      for (var b = a; b >= 0; b--) row.push(a + "-" + b);
      rows.push(row);
    }
    return rows;
  }

  function points(tiles) {
    return tiles.reduce(function (sum, t) {
      var ab = t.split("-").map(Number);
      return sum + (ab[0] === 0 && ab[1] === 0 ? state.double_blank : ab[0] + ab[1]);
    }, 0);
  }

  // A player's entry: its mode (score, tiles or out) and what each mode holds; "double":
  // out was on a double, where the rules score that (kept whatever mode is chosen, as a
  // typed score and picked tiles are).
  function blank() { return { mode: null, score: "", tiles: [], photo: null, double: false }; }

  function doubleScored() { return state.out_on_double > 0; }

  function outOnDouble(f) { return f.mode === "out" && !!f.double && doubleScored(); }

  function nextRound() { return (state.rounds || []).length + 1; }

  // Whether anything has been entered in the form.
  function typed() {
    return state.players.some(function (p) {
      var f = form[p];
      return f && (f.mode !== null || f.photo !== null);
    });
  }

  function resetForm(number) {
    fixing = number || null;
    form = {};
    var entries = fixing ? state.rounds[fixing - 1] : null;
    state.players.forEach(function (p) {
      var f = blank();
      var v = entries ? entries[p] : undefined;
      if (v === "out") f.mode = "out";
      else if (v === "out-double") { f.mode = "out"; f.double = true; }
      else if (v !== undefined && /^[0-9]+$/.test(v)) { f.mode = "score"; f.score = v; }
      else if (v !== undefined) { f.mode = "tiles"; f.tiles = v.split(" "); }
      form[p] = f;
    });
    formKey = null;
  }

  function renderEntry() {
    // A fix is how a round with a problem is mended: its form shows even where the file's
    // problems leave no scoreboard.
    var canWrite = !config.viewOnly && Boolean(fixing || (state.scoreboard && !over()));
    $("entry").hidden = !canWrite;
    $("history-card").hidden = config.viewOnly || !state.rounds || !state.rounds.length;
    renderHistory();
    if (!canWrite) return;
    var key = JSON.stringify([state.players, fixing || nextRound(), state.top,
      state.out_on_double]);
    if (key === formKey) return;
    formKey = key;
    var number = fixing || nextRound();
    $("entry-title").textContent = t(fixing ? "entry_fix" : "entry", { round: number });
    $("submit").textContent = t(fixing ? "save" : "add", { round: number });
    $("cancel-fix").hidden = !fixing;
    var list = $("players");
    clear(list);
    state.players.forEach(function (p) {
      if (!form[p]) form[p] = blank();
      list.appendChild(playerCard(p));
    });
  }

  function playerCard(p) {
    var card = el("div", { cls: "player", "data-player": p });
    card.appendChild(el("div", { cls: "who" },
      el("span", { cls: "name", text: p }), el("span", { cls: "value" })));
    var modes = el("div", { cls: "modes" });
    [["score", t("score")], ["tiles", t("tiles")], ["out", t("out")]].forEach(function (m) {
      var b = el("button", { type: "button", "data-mode": m[0], text: m[1] });
      b.addEventListener("click", function () {
        form[p].mode = m[0];
        form[p].photo = null;
        fill(card, p);
        markTaken();  // tiles picked here are given (or no longer) as this mode says
      });
      modes.appendChild(b);
    });
    if (config.photos) {
      var input = el("input", { type: "file", accept: "image/*", capture: "environment",
        cls: "photo-input", "aria-label": t("photo_of", { player: p }) });
      input.addEventListener("change", function () {
        if (input.files && input.files[0]) upload(card, p, input.files[0]);
        input.value = "";
      });
      modes.appendChild(el("label", { cls: "photo-button", text: t("photo") }, input));
    }
    card.appendChild(modes);
    card.appendChild(el("div", { cls: "detail" }));
    fill(card, p);
    return card;
  }

  function fill(card, p) {
    var f = form[p];
    card.querySelectorAll(".modes button").forEach(function (b) {
      b.classList.toggle("on", b.getAttribute("data-mode") === f.mode);
    });
    var detail = card.querySelector(".detail");
    clear(detail);
    if (f.photo) detail.appendChild(photoPanel(card, p));
    if (f.mode === "score") {
      var input = el("input", { type: "number", inputmode: "numeric", min: "0", cls: "score",
        "aria-label": t("score_of", { player: p }), placeholder: t("points") });
      input.value = f.score;
      input.addEventListener("input", function () { f.score = input.value.trim(); showValue(card, p); });
      detail.appendChild(input);
    } else if (f.mode === "tiles") {
      detail.appendChild(tileGrid(card, p));
    } else if (f.mode === "out" && doubleScored()) {
      // A table that scores going out on a double (its rules' out_on_double): say so.
      var box = el("input", { type: "checkbox", cls: "double" });
      box.checked = !!f.double;
      box.addEventListener("change", function () {
        f.double = box.checked;
        showValue(card, p);
      });
      detail.appendChild(el("label", { cls: "double-out" }, box,
        document.createTextNode(t("out_double"))));
    }
    showValue(card, p);
  }

  function showValue(card, p) {
    var f = form[p];
    var text = "";
    if (outOnDouble(f)) text = t("out_double_value", { points: state.out_on_double });
    else if (f.mode === "out") text = t("out_value");
    else if (f.mode === "score") text = f.score === "" ? "" : f.score;
    else if (f.mode === "tiles") text = (f.tiles.length ? f.tiles.join(" ") : t("no_tiles")) + ": " + points(f.tiles);
    card.querySelector(".value").textContent = text;
    card.classList.remove("bad");
    keep();
  }

  // --- what is typed outlives a reload (a phone may reload a tab it put aside) --------
  function keptKey() { return "cf-form:" + state.file + ":" + JSON.stringify(state.players); }

  function keep() {
    if (fixing) return;  // a fix starts again from the round as it is
    var kept = {};
    state.players.forEach(function (p) {
      var f = form[p] || blank();
      // A photo's reading not yet confirmed is not kept: after a reload it would pass
      // for tiles picked by hand.
      kept[p] = f.photo && f.photo.pending ? blank() : { mode: f.mode, score: f.score,
        tiles: f.tiles.slice(), photo: null, double: !!f.double };
    });
    try {
      sessionStorage.setItem(keptKey(), JSON.stringify({ round: nextRound(), form: kept }));
    } catch (e) { /* private mode, or storage full: nothing kept */ }
  }

  function restore() {
    try {
      var kept = JSON.parse(sessionStorage.getItem(keptKey()) || "null");
      if (!kept || kept.round !== nextRound()) return;
      state.players.forEach(function (p) { if (kept.form[p]) form[p] = kept.form[p]; });
    } catch (e) { /* nothing kept, or not readable: an empty form */ }
  }

  function takenByOthers(p) {
    var taken = {};
    state.players.forEach(function (q) {
      if (q !== p && form[q] && form[q].mode === "tiles") form[q].tiles.forEach(function (t) { taken[t] = q; });
    });
    return taken;
  }

  function starterTile() {
    return (state.scoreboard && !fixing) ? state.scoreboard.next_starter : null;
  }

  // Grey, in every grid shown, the round's starter and the tiles given to someone else.
  function markTaken() {
    var starter = starterTile();
    document.querySelectorAll("#players .player").forEach(function (card) {
      var taken = takenByOthers(card.getAttribute("data-player"));
      card.querySelectorAll(".tile").forEach(function (b) {
        var t = b.getAttribute("data-tile");
        b.classList.toggle("taken", Boolean(taken[t]) || t === starter);
      });
    });
  }

  function tileGrid(card, p) {
    var f = form[p];
    var grid = el("div", { cls: "grid" });
    var taken = takenByOthers(p);
    var starter = starterTile();
    tilesOfSet(state.top).forEach(function (row) {
      var line = el("div", { cls: "grid-row" });
      row.forEach(function (tile) {
        var b = el("button", { type: "button", cls: "tile", "data-tile": tile, text: tile });
        if (f.tiles.indexOf(tile) >= 0) b.classList.add("on");
        if (taken[tile] || tile === starter) b.classList.add("taken");
        b.addEventListener("click", function () {
          var i = f.tiles.indexOf(tile);
          if (i >= 0) f.tiles.splice(i, 1); else f.tiles.push(tile);
          b.classList.toggle("on", i < 0);
          if (f.photo && !f.photo.pending) {
            // a confirmed photo's tiles corrected by hand: say what now stands
            f.photo.message = t("confirmed", { tiles: f.tiles.join(" ") || t("no_tiles") });
            var said = card.querySelector(".photo-message");
            if (said) said.textContent = f.photo.message;
          }
          showValue(card, p);
          markTaken();
        });
        line.appendChild(b);
      });
      grid.appendChild(line);
    });
    return grid;
  }

  function photoPanel(card, p) {
    var ph = form[p].photo;
    var panel = el("div", { cls: "photo" + (ph.pending ? " pending" : "") });
    if (ph.image) panel.appendChild(el("img", { src: ph.image, alt: t("photo_read", { player: p }) }));
    panel.appendChild(el("p", { cls: "photo-message", text: ph.message }));
    if (ph.unreadable && ph.unreadable.length) {
      ph.unreadable.forEach(function (u) {
        var might = u.candidates.length ? u.candidates.reduce(function (a, b) {
          return t("or", { tile: a, other: b });
        }) : t("any_tile");
        panel.appendChild(el("p", { cls: "unreadable", text: t("might_be", { tiles: might }) }));
      });
    }
    if (ph.pending && ph.found) {
      var ok = el("button", { type: "button", cls: "confirm", text: t("confirm") });
      ok.addEventListener("click", function () {
        if (!form[p].tiles.length) {
          // A photo that shows a domino is never the player out (SPEC §9): with no tile
          // read or picked, the tiles it could not read are picked in the grid first.
          ph.message = t("pick_first");
          fill(card, p);
          return;
        }
        var missing = (ph.read || 0) + (ph.unreadable || []).length - form[p].tiles.length;
        if (missing > 0 && !ph.warned) {
          // Nor is a tile the photo could not read left out unsaid (a wrong total is worse
          // than none; cf score --photo refuses it): the table is told how many are not
          // picked, and a second tap confirms that they are no tiles of the hand.
          ph.warned = true;
          ph.message = t("pick_unread", { n: missing });
          fill(card, p);
          return;
        }
        ph.pending = false;
        ph.message = t("confirmed", { tiles: form[p].tiles.join(" ") });
        fill(card, p);
      });
      panel.appendChild(ok);
    }
    return panel;
  }

  function upload(card, p, file) {
    var f = form[p];
    if (file.size > 25 * 1024 * 1024) {
      f.photo = { pending: true, found: false, message: t("too_big", { size: 25 }) };
      fill(card, p);
      return;
    }
    f.photo = { pending: true, found: false, message: t("reading") };
    fill(card, p);
    fetch("api/photo?" + lang, {
      method: "POST", body: file, credentials: "same-origin",
      headers: { "X-CF-Token": config.token, "Content-Type": file.type || "application/octet-stream" }
    }).then(function (r) {
      if (r.status === 403 && !/json/.test(r.headers.get("Content-Type") || "")) {
        return { error: t("forbidden") };  // the join token, not the photo
      }
      return r.json();
    }).then(function (data) {
      if (data.error) {
        f.photo = { pending: true, found: false, message: said(data, "error") };
      } else if (!data.found) {
        // No domino found is never a player out (SPEC §9): the photo gives no value, and
        // the round cannot be added until it is taken again or the hand is entered.
        f.mode = null;
        f.tiles = [];
        f.photo = { pending: true, found: false, nothing: true, message: said(data, "message"),
          image: data.image };
      } else {
        f.mode = "tiles";
        f.tiles = data.tiles.slice();
        f.photo = { pending: data.found, found: data.found, message: said(data, "message"),
          image: data.image, unreadable: data.unreadable, read: data.tiles.length };
      }
      fill(card, p);
      markTaken();  // the photo's tiles are given (or none now) in every other grid
    }).catch(function () {
      f.photo = { pending: true, found: false, message: t("not_sent") };
      fill(card, p);
    });
  }

  function entryValue(p) {
    var f = form[p];
    if (f.photo && f.photo.pending) {
      return { error: t(f.photo.nothing ? "photo_again" : "confirm_first", { player: p }) };
    }
    if (f.mode === "out") return { value: outOnDouble(f) ? "out-double" : "out" };
    if (f.mode === "score") {
      if (f.score === "") return { error: t("give_value", { player: p }) };
      if (!/^[0-9]+$/.test(f.score)) return { error: t("not_score", { player: p, score: f.score }) };
      return { value: f.score };
    }
    if (f.mode === "tiles") {
      // No tile tapped is no value: a player who went out is given Out, and a photo whose
      // reading was dropped (Tiles tapped again) or emptied is never the player out.
      if (!f.tiles.length) return { error: t("tap_tiles", { player: p }) };
      return { value: f.tiles.join(" ") };
    }
    return { error: t("give_value", { player: p }) };
  }

  // message: what the refusal says; lines: the problems' lines, as the reader reads them.
  function refuse(message, lines, players) {
    var box = $("refusal");
    clear(box);
    box.hidden = false;
    box.appendChild(el("strong", { text: message }));
    lines.forEach(function (line) { box.appendChild(el("span", { cls: "problem", text: line })); });
    lines = [message].concat(lines).join("\n");
    document.querySelectorAll("#players .player").forEach(function (card) {
      var name = card.getAttribute("data-player");
      var named = (players || []).indexOf(name) >= 0 || mentions(lines, name);
      card.classList.toggle("bad", named);
    });
  }

  // Whether text names a player as a whole word: Ana is not named in "Anabel: ...".
  function mentions(text, name) {
    var word = /[\p{L}\p{N}_]/u;
    for (var i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
      var after = text.charAt(i + name.length);
      if (!(i && word.test(text.charAt(i - 1))) && !(after && word.test(after))) return true;
    }
    return false;
  }

  function submit() {
    var entries = [];
    var errors = [];
    state.players.forEach(function (p) {
      var v = entryValue(p);
      if (v.error) errors.push([p, v.error]); else entries.push([p, v.value]);
    });
    if (errors.length) {
      refuse(t("nothing_written", { why: errors.map(function (e) { return e[1]; }).join("; ") }), [],
        errors.map(function (e) { return e[0]; }));
      return;
    }
    var button = $("submit");
    button.disabled = true;
    posting = true;
    var body = { entries: entries, round: fixing, next: fixing ? null : nextRound() };
    post("api/round?" + lang, body).then(function (res) {
      posting = false;
      button.disabled = false;
      if (res.ok) {
        $("refusal").hidden = true;
        state = res.data;
        resetForm(null);
        render();
      } else if (!fixing && body.next !== nextRound()) {
        // The rounds moved on while this write was on its way (another phone's landed
        // first): what was typed was for round body.next and must not slip into the next.
        resetForm(null);
        refuse(t("moved_on", { next: nextRound() }), [], []);
        render();
      } else {
        refuse(said(res.data, "error") || t("refused"), problemLines(res.data),
          (res.data.problems || []).map(function (q) { return q.player; }));
      }
    });
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "X-CF-Token": config.token, "Content-Type": "application/json" }
    }).then(function (r) {
      if (r.status === 403 && !/json/.test(r.headers.get("Content-Type") || "")) {
        return { ok: false, data: { error: t("forbidden") } };  // the join token, not the round
      }
      return r.json().then(function (data) { return { ok: r.ok, data: data }; });
    }).catch(function () { return { ok: false, data: { error: t("unreachable") } }; });
  }

  // --- rounds so far: fix one, undo the last ------------------------------------------
  // An entry of a round as the page's language says it: out and out on a double in words.
  function entryWords(value) {
    if (value === "out") return t("out").toLowerCase();
    if (value === "out-double") return t("out_double").toLowerCase();
    return value;
  }

  function renderHistory() {
    var list = $("history");
    clear(list);
    (state.rounds || []).forEach(function (entries, i) {
      // Each name isolated (a right-to-left name keeps its entry after it), each tile kept
      // whole on one line (10-2 never breaks as "10-" and "2").
      var line = el("span");
      if (!entries) line.textContent = t("in_file");
      else state.players.forEach(function (p, k) {
        if (k) line.appendChild(document.createTextNode(" · "));
        line.appendChild(el("bdi", { text: p }));
        var value = el("span");
        withTiles(value, " " + entryWords(entries[p]));
        line.appendChild(value);
      });
      var item = el("li", { "data-round": String(i + 1) }, line);
      if (entries && !config.viewOnly) {
        var fix = el("button", { type: "button", cls: "fix", text: t("fix") });
        fix.addEventListener("click", function () {
          resetForm(i + 1);
          $("refusal").hidden = true;
          render();
          $("entry").scrollIntoView();
        });
        item.appendChild(fix);
      }
      list.appendChild(item);
    });
  }

  $("undo").addEventListener("click", function () {
    var last = (state.rounds || []).length;
    var button = $("undo");
    if (!last) return;
    if (undoArmed !== last) {
      undoArmed = last;
      button.textContent = t("tap_again", { round: last });
      button.classList.add("armed");
      setTimeout(function () {
        undoArmed = null;
        button.textContent = t("undo");
        button.classList.remove("armed");
      }, 5000);
      return;
    }
    undoArmed = null;
    button.textContent = t("undo");
    button.classList.remove("armed");
    posting = true;
    post("api/undo?" + lang, { last: last }).then(function (res) {
      posting = false;
      if (res.ok) { state = res.data; resetForm(null); $("refusal").hidden = true; render(); }
      else refuse(said(res.data, "error") || t("refused"), problemLines(res.data), []);
    });
  });

  $("submit").addEventListener("click", submit);
  $("cancel-fix").addEventListener("click", function () {
    resetForm(null);
    $("refusal").hidden = true;
    render();
  });

  function render() {
    renderBanner();
    renderBoard();
    renderEntry();
    renderChart();
  }

  // --- live: the server pushes the state whenever the file changes -------------------
  function listen() {
    var source = new EventSource("events" + query + "&" + lang);
    source.addEventListener("state", function (e) {
      var fresh = JSON.parse(e.data);
      if (fresh.version === state.version) return;
      var before = nextRound();
      var was = fixing ? JSON.stringify((state.rounds || [])[fixing - 1]) : null;
      state = fresh;
      if (fixing && fixing > (state.rounds || []).length) resetForm(null);
      else if (fixing && !posting && JSON.stringify(state.rounds[fixing - 1]) !== was) {
        // The round being fixed was changed on another phone: saving this form would undo
        // that change unseen. The form shows the round as it is now.
        var number = fixing;
        resetForm(number);
        refuse(t("fix_changed", { round: number }), [], []);
      } else if (!posting && !fixing && nextRound() !== before && typed()) {
        // Another page wrote (or removed) a round: what was typed here was for round
        // `before`, and must not slip into another one unseen.
        resetForm(null);
        refuse(t("moved_on", { next: nextRound() }), [], []);
      }
      render();
    });
    source.addEventListener("open", function () { $("live").classList.add("on"); });
    source.addEventListener("error", function () { $("live").classList.remove("on"); });
  }

  resetForm(null);
  restore();
  render();
  listen();
})();
