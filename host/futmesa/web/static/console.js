// futmesa referee console: sends actions to POST /api/referee with the role
// token and shows, for each one, the answer (or why it was refused) at once.
"use strict";

const Console = (() => {
  const $ = (id) => document.getElementById(id);
  const q = FM.params();
  const table = q.get("table"); // a host running several tables: /console?table=ID
  // each table has its own token: two tables' consoles on one phone keep theirs
  const KEY = table ? `futmesa.token.${table}` : "futmesa.token";
  const forTable = table ? `table=${encodeURIComponent(table)}` : "";
  const keeperLink = (t) => `/console/keeper?${forTable ? `${forTable}&` : ""}token=${encodeURIComponent(t)}`;
  if (q.get("token")) {
    localStorage.setItem(KEY, q.get("token"));
    const rest = new URLSearchParams(location.search);
    rest.delete("token"); // keep the token out of the address bar (and its history)
    history.replaceState(null, "", location.pathname + (rest.toString() ? `?${rest}` : ""));
  }
  let token = localStorage.getItem(KEY) || "";
  let tokenWorked = false; // accepted earlier on this page: a refusal now means a new match
  let side = "A";
  let state = null;
  let lastReferee = null; // id of the last live referee entry, for U (void last)
  const author = () => ($("referee").value || localStorage.getItem("futmesa.referee") || "árbitro");

  function headers() {
    const h = { "Content-Type": "application/json" };
    if (token) h.Authorization = `Bearer ${token}`;
    return h;
  }

  function say(text, kind) {
    const el = $("result");
    el.textContent = text;
    el.className = `result ${kind || ""}`;
  }

  async function checkToken() {
    const el = $("token-status");
    el.textContent = "";
    try {
      const r = await fetch(`/api/token${forTable ? `?${forTable}` : ""}`, { headers: headers() });
      if (r.ok) {
        el.textContent = "✓ acesso de árbitro";
        el.className = "token ok";
        tokenWorked = true;
        return;
      }
      const body = await r.json();
      el.className = "token bad";
      if (r.status === 403 && tokenWorked) {
        el.append("✗ Nova partida iniciada em outro aparelho: este link não vale mais. " +
          "Escaneie o novo QR code (na tela do computador da mesa) ");
      } else el.append(`✗ ${body.error} `);
      const a = document.createElement("a");
      a.href = `/console/recover${forTable ? `?${forTable}` : ""}`;
      a.textContent = "recuperar (só no computador da mesa)";
      el.append(a);
    } catch (e) {
      el.textContent = "✗ servidor inacessível";
      el.className = "token bad";
    }
  }

  async function pollPending(id, started, label) {
    // a slow action (a busy host): the same answer as a fast one, with the same label,
    // whenever it comes; after 10 s the console says it is still waiting
    for (let i = 0; i < 300; i++) {
      await new Promise((res) => setTimeout(res, 200));
      if (i === 50) say(`… ${label}: ainda aplicando (o computador da mesa está lento)`, "busy");
      let body;
      try {
        const r = await fetch(`/api/referee/${id}`, { headers: headers() });
        body = await r.json();
      } catch (e) { continue; }
      if (body.ok === true) {
        if (body.token) adoptToken(body.token);
        say(`✓ ${label} (${Math.round(performance.now() - started)} ms)`, "ok");
        refreshLog();
        return;
      }
      if (body.ok === false) return say(`✗ ${label} recusado: ${body.error}`, "bad");
    }
    say(`? ${label}: sem resposta do motor em 60 s — confira o registro antes de repetir`, "bad");
  }

  async function send(kind, data, label) {
    const started = performance.now();
    say(`… ${label || kind}`, "busy");
    let r;
    try {
      r = await fetch("/api/referee", {
        method: "POST",
        headers: headers(),
        body: JSON.stringify({ kind, data: data || {}, author: author(), ...(table ? { table } : {}) }),
      });
    } catch (e) {
      say(`✗ sem conexão com o servidor: ${label || kind} não foi enviado`, "bad");
      return null;
    }
    let body = {};
    try { body = await r.json(); } catch (e) { body = { error: `HTTP ${r.status}` }; }
    const ms = Math.round(performance.now() - started);
    if (r.status === 202 && body.pending) {
      say(`… ${label || kind}: recebido, aplicando`, "busy");
      pollPending(body.id, started, label || kind);
      return body;
    }
    if (r.ok && body.ok) {
      if (body.token) adoptToken(body.token); // our own "Nova partida": keep refereeing
      say(`✓ ${label || kind} (${ms} ms)`, "ok");
      refreshLog();
    } else {
      say(`✗ ${label || kind} recusado: ${body.error || `HTTP ${r.status}`}`, "bad");
    }
    return body;
  }

  function adoptToken(t) {
    token = t;
    localStorage.setItem(KEY, t);
    $("keeper-link").href = keeperLink(t);
    checkToken();
  }

  function disc() {
    const v = $("disc").value.trim();
    return v === "" ? null : Number(v);
  }

  function setSide(s) {
    side = s;
    for (const x of ["A", "B"]) $(`side-${x}`).setAttribute("aria-pressed", String(x === s));
  }

  const actions = {
    start: () => send("start_period", {}, "iniciar período"),
    pause: () => (state && state.clock && state.clock.running
      ? send("pause", {}, "parar relógio") : send("resume", {}, "retomar relógio")),
    kickoff: () => send("kickoff", { side }, `saída de jogo ${name(side)}`),
    shot_result: () => send("shot_result", { outcome: $("shot-outcome").value }, "chute sem gol"),
    lance_done: () => send("lance_done", {}, "último lance terminado"),
    last_touch: () => send("last_touch", { side }, `último toque ${name(side)}`),
    added: () => send("added_time", { ms: Math.round(Number($("added-min").value || 0) * 60000) },
      "acréscimo"),
    shot: () => send("shot_asked", { side, disc: disc(), ball: $("shot-ball").value },
      `chute pedido ${name(side)}${disc() != null ? ` ${disc()}` : ""}`),
    touch: () => send("touch", { side, disc: disc() }, `toque ${side}`),
    touch_out_of_turn: () => send("touch", { side, disc: disc(), out_of_turn: true },
      `toque fora da vez ${name(side)}`),
    ball_stopped: () => send("ball_stopped", { side, area: "small" },
      `bola parada na pequena área de ${name(side)}`),
    midline_deflection: () => send("midline_deflection", {}, "desvio na linha divisória"),
    restart_failed: () => send("restart_failed", {
      reason: $("failed-reason").value, choice: $("failed-choice").value,
    }, "cobrança falhou"),
    draw_choice: () => send("draw_choice", {
      winner: side, choice: $("draw-choice").value, goal: Number($("draw-goal").value),
    }, `sorteio: ${name(side)}`),
    foul: () => send("foul", { side, disc: disc(), type: $("foul-type").value, where: $("foul-where").value },
      `falta ${name(side)}`),
    discipline: () => send("discipline", { side, disc: disc(), type: $("disc-action").value },
      `disciplina ${side}`),
    restart: () => send("restart", { side, kind: $("restart-type").value }, `reinício ${side}`),
    substitution: () => send("substitution", {
      side, out: Number($("sub-out").value), in: Number($("sub-in").value),
    }, `substituição ${side}`),
    kick: () => send("shootout_kick", { side, disc: disc() }, `cobrança ${name(side)}`),
    "kick-goal": () => send("shootout_result", { scored: true }, "pênalti: gol"),
    "kick-miss": () => send("shootout_result", { scored: false }, "pênalti: perdido"),
  };

  // ---- live state -------------------------------------------------------------------
  function name(s) {
    const t = state && state.teams && state.teams[s];
    return t && t.name != null ? String(t.name) : s;
  }

  function render() {
    if (!state) return;
    for (const s of ["A", "B"]) {
      $(`c-name-${s}`).textContent = name(s);
      const t = state.teams && state.teams[s];
      $(`sw-${s}`).style.background = FM.safeColor(t && t.color, "#888");
      $(`side-${s}`).textContent = "";
      $(`side-${s}`).append(`${name(s)} `);
      const k = document.createElement("kbd");
      k.textContent = s;
      $(`side-${s}`).append(k);
    }
    const sc = state.score || {};
    $("c-score").textContent = `${sc.A || 0} × ${sc.B || 0}`;
    $("c-period").textContent = state.finished ? "fim" : state.period ? `${state.period}º T` : state.status || "";
    const m = state.match || {};
    $("c-turn").textContent = m.turn ? name(m.turn) : "—";
    const link = $("c-link");
    const off = state.link && state.link.connected === false;
    const faults = state.sensor_faults && typeof state.sensor_faults === "object"
      ? Object.entries(state.sensor_faults).map(([s, f]) => `sensor ${s}: ${f}`) : [];
    const health = state.health && !state.health.ok ? (state.health.faults || []).map((f) => f.pt || f.code) : [];
    link.textContent = (off ? " ⚠ mesa desconectada" : "") + health.map((h) => ` ⚠ ${h}`).join("")
      + (faults.length ? ` ⚠ ${faults.join(", ")}` : "");
    renderResetOffer(state.link && state.link.reset);
    renderPending(m.pending);
    // the venue desk's next match for this table: one press starts it, settings filled in
    const nxt = state.next;
    $("start-next").classList.toggle("hidden", !nxt);
    $("start-next").textContent = nxt ? `▶ Iniciar próxima: ${nxt.title}${nxt.label ? ` (${nxt.label})` : ""}` : "";
    const ann = Array.isArray(m.announcements) && m.announcements.length ? m.announcements[m.announcements.length - 1] : null;
    $("c-announce").textContent = ann ? `» ${typeof ann === "string" ? ann : ann.pt || ann.en || ann.code}` : "";
    tick();
  }

  function tick() {
    if (!state) return;
    const now = FM.hostNow();
    const c = FM.timerMs(state.clock, now);
    $("c-clock").textContent = c == null ? "--:--" : FM.mmss(c);
    const l = FM.countdownMs(state.lance, now);
    $("c-lance").textContent = l == null ? "—" : String(Math.max(0, Math.ceil(l / 1000)));
  }

  function renderPending(list) {
    const ul = $("pending");
    ul.textContent = "";
    if (!Array.isArray(list) || !list.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = "nada pendente";
      ul.append(li);
      return;
    }
    for (const p of list) {
      const li = document.createElement("li");
      const target = p && typeof p === "object" ? (p.id ?? p.entry ?? p.target) : p;
      const text = p && typeof p === "object" ? (p.pt || p.text || p.kind || JSON.stringify(p)) : String(p);
      li.append(`#${target}: ${text} `);
      const options = p && Array.isArray(p.options) ? p.options : null;
      const label = (c) => (c === "A" || c === "B" ? name(c) : OPTION_LABELS[c] || c);
      if (p && p.input === "disc") {
        // a free answer: the number of a disc (e.g. which disc is sent off)
        const input = document.createElement("input");
        input.type = "number";
        input.min = "0";
        input.max = "99";
        input.inputMode = "numeric";
        input.placeholder = "botão nº";
        input.className = "pending-disc";
        const b = document.createElement("button");
        b.textContent = "Confirmar botão";
        b.addEventListener("click", () => {
          if (input.value.trim() === "") return say("✗ informe o número do botão", "bad");
          send("confirm", { target, choice: Number(input.value) }, `#${target}: botão ${input.value}`);
        });
        li.append(input, b);
      } else if (options) {
        // one button per answer the ruleset offers; the default one is marked
        for (const choice of options) {
          const b = document.createElement("button");
          b.textContent = choice === p.default ? `✓ ${label(choice)}` : label(choice);
          b.dataset.choice = choice;
          b.addEventListener("click", () => send("confirm", { target, choice }, `#${target}: ${label(choice)}`));
          li.append(b);
        }
      } else {
        for (const [accept, label] of [[true, "Aceitar"], [false, "Rejeitar"]]) {
          const b = document.createElement("button");
          b.textContent = label;
          b.addEventListener("click", () => send("confirm", { target, accept }, `${label.toLowerCase()} #${target}`));
          li.append(b);
        }
      }
      ul.append(li);
    }
  }

  // answers the rules offer in "A confirmar" (docs/rulesets.md, Pending confirmations)
  const OPTION_LABELS = {
    no_goal: "sem gol", corner: "escanteio", own_goal: "gol contra",
    shot_asked: "chute pedido (não registrado)", false_trip: "falso acionamento",
    counts: "vale", foul: "falta", no_foul: "sem falta",
  };

  // ---- log and corrections ---------------------------------------------------------
  let logTimer = null;
  function refreshLog() {
    clearTimeout(logTimer);
    logTimer = setTimeout(loadLog, 150);
  }

  async function loadLog() {
    const url = state && state.match_id != null ? `/api/log?match=${encodeURIComponent(state.match_id)}` : "/api/log";
    let body;
    try {
      const r = await fetch(url);
      body = await r.json();
      if (!r.ok) {
        renderLogMessage(body.error || `HTTP ${r.status}`);
        return;
      }
    } catch (e) {
      return;
    }
    renderLog(body.entries || []);
  }

  function renderLogMessage(text) {
    const tb = $("log");
    tb.textContent = "";
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 7;
    td.textContent = text;
    tr.append(td);
    tb.append(tr);
  }

  // the table was reset: offer the match time its clock did not count as added time
  let resetHandled = null;
  function renderResetOffer(reset) {
    const box = $("reset-offer");
    const secs = reset && reset.restored ? Math.round((reset.lost_ms || 0) / 1000) : 0;
    const open = secs >= 1 && resetHandled !== reset.at;
    box.hidden = !open;
    if (!open) return;
    $("reset-text").textContent =
      `⚠ A mesa reiniciou: o relógio não contou ${FM.mmss(secs * 1000)}. Acrescentar esse tempo?`;
    $("reset-add").onclick = () => {
      resetHandled = reset.at;
      box.hidden = true;
      send("added_time", { ms: secs * 1000 }, `acréscimo de ${secs} s (reinício da mesa)`);
    };
    $("reset-dismiss").onclick = () => {
      resetHandled = reset.at;
      box.hidden = true;
    };
  }

  function describe(e) {
    return e.text || e.kind;
  }

  function renderLog(entries) {
    const tb = $("log");
    tb.textContent = "";
    lastReferee = null;
    for (const e of entries) {
      if (e.source === "referee" && e.correctable) lastReferee = e;
    }
    for (const e of [...entries].reverse()) {
      const tr = document.createElement("tr");
      tr.dataset.id = e.id;
      if (e.voided) tr.className = "voided";
      const said = (e.meaning || []).length ? ` — ${e.meaning.join("; ")}` : "";
      const cells = [e.id, e.period ? `${e.period}º` : "", e.clock_ms != null ? FM.mmss(e.clock_ms) : "",
        describe(e) + said, e.origin || "", e.status_text || ""];
      for (const c of cells) {
        const td = document.createElement("td");
        td.textContent = String(c);
        tr.append(td);
      }
      const td = document.createElement("td");
      if (e.correctable) {
        for (const [mode, label] of [["void", "Anular"], ["amend", "Corrigir"]]) {
          const b = document.createElement("button");
          b.textContent = label;
          b.dataset.fix = mode;
          b.addEventListener("click", () => openFix(e, mode));
          td.append(b);
        }
      }
      tr.append(td);
      tb.append(tr);
    }
  }

  // ---- the correction form: pick void or amend, change fields, give a reason ----------
  let fixing = null;
  function openFix(e, mode) {
    fixing = e;
    $("fix-title").textContent = `Registro nº ${e.id}`;
    $("fix-what").textContent = describe(e);
    $("fix-reason").value = "";
    $("fix-false-trip").checked = false;
    const fields = $("fix-fields");
    fields.textContent = "";
    for (const f of e.fields || []) {
      const label = document.createElement("label");
      label.append(`${f.label} `);
      let input;
      if (f.type === "choice") {
        input = document.createElement("select");
        for (const o of f.options) {
          const opt = document.createElement("option");
          opt.value = JSON.stringify(o.value);
          opt.textContent = o.label;
          if (JSON.stringify(o.value) === JSON.stringify(f.value)) opt.selected = true;
          input.append(opt);
        }
      } else if (f.type === "bool") {
        input = document.createElement("input");
        input.type = "checkbox";
        input.checked = Boolean(f.value);
      } else {
        input = document.createElement("input");
        input.type = f.type === "number" ? "number" : "text";
        input.value = f.value == null ? "" : String(f.value);
      }
      input.dataset.key = f.key;
      input.dataset.type = f.type;
      label.append(input);
      fields.append(label);
    }
    $("fix-amend").disabled = !(e.fields || []).length;
    (mode === "amend" && (e.fields || []).length ? $("fix-amend") : $("fix-void")).checked = true;
    showFixFields();
    $("fix").showModal();
  }

  function showFixFields() {
    $("fix-fields").hidden = !$("fix-amend").checked;
    // voiding a goal-line trip: the ball went in but no goal (goal kick), or it never went in
    $("fix-trip-row").hidden = !(fixing && fixing.kind === "goal_line" && $("fix-void").checked);
  }

  function fixData() {
    const data = { ...(fixing.data || {}) };
    for (const input of $("fix-fields").querySelectorAll("[data-key]")) {
      const key = input.dataset.key;
      if (input.dataset.type === "choice") data[key] = JSON.parse(input.value);
      else if (input.dataset.type === "bool") data[key] = input.checked;
      else if (input.dataset.type === "number") data[key] = Number(input.value);
      else data[key] = input.value;
    }
    return data;
  }

  function submitFix(ev) {
    ev.preventDefault();
    if (!fixing) return;
    const reason = $("fix-reason").value.trim();
    const target = fixing.id;
    if ($("fix-amend").checked) {
      send("amend", { target, data: fixData(), ...(reason ? { reason } : {}) }, `corrigir #${target}`);
    } else {
      const trip = fixing.kind === "goal_line" ? { false_trip: $("fix-false-trip").checked } : {};
      send("void", { target, ...trip, ...(reason ? { reason } : {}) }, `anular #${target}`);
    }
    $("fix").close();
    fixing = null;
  }

  // ---- forms, display, shortcuts ------------------------------------------------------
  function wire() {
    $("fix-form").addEventListener("submit", submitFix);
    $("fix-cancel").addEventListener("click", () => { $("fix").close(); fixing = null; });
    for (const r of document.querySelectorAll("input[name=fix-mode]")) r.addEventListener("change", showFixFields);
    for (const b of document.querySelectorAll("[data-act]")) {
      b.addEventListener("click", () => actions[b.dataset.act]());
    }
    for (const b of document.querySelectorAll(".side")) {
      b.addEventListener("click", () => setSide(b.dataset.side));
    }
    for (const b of document.querySelectorAll("[data-display]")) {
      b.addEventListener("click", async () => {
        const r = await fetch(`/api/display${forTable ? `?${forTable}` : ""}`, { method: "POST", headers: headers(), body: b.dataset.display });
        const body = await r.json();
        say(r.ok ? `✓ telões: ${b.textContent}` : `✗ telões: ${body.error}`, r.ok ? "ok" : "bad");
      });
    }
    $("setup").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const f = new FormData(ev.target);
      const what = (ev.submitter && ev.submitter.value) || "new_match";
      localStorage.setItem("futmesa.referee", f.get("referee") || "");
      const teams = {
        A: { name: f.get("nameA"), color: f.get("colorA") },
        B: { name: f.get("nameB"), color: f.get("colorB") },
      };
      if (what === "set_up") {
        send("set_up", { teams }, "equipes");
        return;
      }
      const settings = {
        teams, referee: f.get("referee") || "", event: f.get("event") || "",
        competition: f.get("competition"),
      };
      if (f.get("half_min")) settings.period_ms = Number(f.get("half_min")) * 60000;
      if (!confirm("Encerrar a partida atual e abrir uma nova?")) return;
      send("new_match", { ruleset: f.get("ruleset"), settings }, "nova partida");
    });
    $("start-next").addEventListener("click", () => {
      if (!state || !state.next) return;
      const playing = !state.finished && state.status !== "not_started";
      if (playing && !confirm("A partida atual ainda não terminou. Encerrá-la e abrir a próxima?")) return;
      send("new_match", state.next.start, `próxima partida: ${state.next.title}`);
    });
    $("raw").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const f = new FormData(ev.target);
      let data;
      try { data = JSON.parse(f.get("data") || "{}"); } catch (err) { say(`✗ JSON inválido: ${err.message}`, "bad"); return; }
      send(String(f.get("kind")), data);
    });
    $("referee").value = localStorage.getItem("futmesa.referee") || "";
    document.addEventListener("keydown", onKey);
  }

  function onKey(ev) {
    const tag = (ev.target && ev.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) && ev.target.id !== "disc") return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    const typingDisc = ev.target && ev.target.id === "disc";
    if (/^[0-9]$/.test(k) && !typingDisc) {
      $("disc").value = ($("disc").value + k).slice(-2);
      ev.preventDefault();
      return;
    }
    if (k === "Backspace" && !typingDisc) { $("disc").value = $("disc").value.slice(0, -1); ev.preventDefault(); return; }
    if (typingDisc && !["Enter"].includes(k) && !/^[abcdftxrsuklnp?]$/i.test(k)) return;
    const map = {
      s: "start", d: "lance_done", l: "last_touch", Enter: "shot", c: "shot", f: "foul", t: "touch", x: "discipline", r: "restart",
      k: "kickoff", n: "shot_result", p: "pause",
    };
    const lower = k.length === 1 ? k.toLowerCase() : k;
    if (lower === "a" || lower === "b") { setSide(lower.toUpperCase()); ev.preventDefault(); return; }
    if (lower === "?") { $("help").showModal(); ev.preventDefault(); return; }
    if (lower === "u") {
      ev.preventDefault();
      if (lastReferee && confirm(`Anular a entrada #${lastReferee.id} (${describe(lastReferee)})?`)) {
        send("void", { target: lastReferee.id }, `anular #${lastReferee.id}`);
      } else if (!lastReferee) say("nada para anular", "bad");
      return;
    }
    if (map[lower]) {
      ev.preventDefault();
      if (ev.repeat) return;
      actions[map[lower]]();
    }
  }

  wire();
  if (table) { // a host serving several tables: say which one this console commands
    $("c-table").textContent = `Mesa ${table}`;
    $("c-table").hidden = false;
  }
  checkToken();
  if (token) $("keeper-link").href = keeperLink(token);
  setSide("A");
  FM.connect(table ? `/ws?table=${encodeURIComponent(table)}` : "/ws", {
    onMessage: (msg) => {
      if (msg.type === "state" && msg.state) {
        const before = state && state.match ? `${state.match_id}:${state.match.log_length}` : null;
        const newMatch = state && msg.state.match_id !== state.match_id;
        state = msg.state;
        render();
        if (newMatch) checkToken(); // another console's "Nova partida" retires our token
        // the log changes only with a new entry (device event, input or correction); a
        // clock status alone does not ask the host to rebuild it
        const after = state.match ? `${state.match_id}:${state.match.log_length}` : null;
        if (after !== before || after === null || after.endsWith("undefined")) refreshLog();
      }
    },
    onStatus: (st) => {
      if (!st.up) $("c-link").textContent = " ⚠ sem conexão com o servidor";
    },
  });
  setInterval(tick, 200);
  loadLog();
  return { send, actions, get token() { return token; }, setToken: adoptToken };
})();
