// The súmula's signing page: the result and summary, then the referee and each captain sign
// with a finger; a signature is sent with the chain hash shown (POST /api/assinar, console
// token as in the console). "Reabrir" sends the reason (POST /api/reabrir).
(() => {
  const $ = (id) => document.getElementById(id);
  const q = new URLSearchParams(location.search);
  const table = q.get("table") || "";
  const KEY = table ? `futmesa.token.${table}` : "futmesa.token"; // the console's own key
  if (q.get("token")) {
    localStorage.setItem(KEY, q.get("token"));
    q.delete("token");
    history.replaceState(null, "", `${location.pathname}${q.toString() ? `?${q}` : ""}`);
  }
  const token = () => localStorage.getItem(KEY) || "";
  const forTable = table ? `table=${encodeURIComponent(table)}` : "";
  let view = null;
  let drawn = false;

  function say(text, ok) {
    const el = $("msg");
    el.textContent = text;
    el.className = `msg ${ok ? "ok" : "bad"}`;
  }

  function item(text, cls) {
    const li = document.createElement("li");
    li.textContent = text;
    if (cls) li.className = cls;
    return li;
  }

  async function load() {
    const match = q.get("match");
    const url = `/api/assinaturas?${match ? `match=${encodeURIComponent(match)}` : forTable}`;
    const r = await fetch(url, { cache: "no-store" });
    const body = await r.json();
    if (!r.ok) { say(body.error || "não foi possível ler a partida", false); return; }
    view = body;
    $("title").textContent = `Súmula da partida nº ${body.match_id}`;
    $("result").textContent = body.result;
    $("ending").textContent = body.finished ? body.ending : `Partida ${body.ending}: assine depois do apito final`;
    $("summary").replaceChildren(...body.summary.map((s) => item(s)));
    $("hash").textContent = body.chain.short || "—";
    $("verify").href = body.verify_url;
    $("sumula").href = `/report/${body.match_id}`;
    $("signed").replaceChildren(...(body.signatures.length ? body.signatures.map((s) => {
      const li = item("", s.valid ? "" : "invalid");
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = `${s.label}: ${s.name}`;
      li.append(who, s.valid ? " — assinada" : ` — sem validade (partida reaberta${s.reason ? `: ${s.reason}` : ""})`);
      if (s.image && s.image.startsWith("data:image/png;base64,")) {
        const img = document.createElement("img");
        img.src = s.image;
        img.alt = `assinatura de ${s.name}`;
        li.append(img);
      }
      return li;
    }) : [item("ninguém assinou ainda")]));
    $("sign-card").hidden = !body.finished; // signatures come after the final whistle
    $("reopen-card").hidden = !body.closed; // only a match the referee closed is reopened
    const role = $("role");
    const chosen = role.value;
    role.replaceChildren(...body.roles.map((r) => {
      const o = document.createElement("option");
      o.value = r.role;
      const done = body.signatures.some((s) => s.valid && s.role === r.role);
      o.textContent = r.label + (done ? " (já assinou)" : "");
      o.disabled = done;
      return o;
    }));
    const free = body.roles.find((r) => !body.signatures.some((s) => s.valid && s.role === r.role));
    role.value = chosen && !role.querySelector(`option[value="${chosen}"]`).disabled ? chosen : (free ? free.role : "");
  }

  // the drawing pad: pointer events (finger, pen or mouse), drawn at the screen's resolution
  const pad = $("pad");
  const ctx = pad.getContext("2d");
  function fit() {
    const ratio = window.devicePixelRatio || 1;
    pad.width = pad.clientWidth * ratio;
    pad.height = pad.clientHeight * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.lineWidth = 3.5;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#000";
    drawn = false;
  }
  let last = null;
  const at = (e) => { const b = pad.getBoundingClientRect(); return [e.clientX - b.left, e.clientY - b.top]; };
  pad.addEventListener("pointerdown", (e) => { pad.setPointerCapture(e.pointerId); last = at(e); });
  pad.addEventListener("pointermove", (e) => {
    if (!last) return;
    const p = at(e);
    ctx.beginPath(); ctx.moveTo(...last); ctx.lineTo(...p); ctx.stroke();
    last = p; drawn = true;
  });
  const up = () => { last = null; };
  pad.addEventListener("pointerup", up);
  pad.addEventListener("pointercancel", up);
  $("clear").addEventListener("click", fit);

  // the drawing, scaled down to a small PNG (a signature needs no more than 400 × 150)
  function png() {
    const small = document.createElement("canvas");
    const scale = Math.min(1, 400 / pad.width, 150 / pad.height);
    small.width = Math.round(pad.width * scale);
    small.height = Math.round(pad.height * scale);
    const s = small.getContext("2d");
    s.fillStyle = "#fff";
    s.fillRect(0, 0, small.width, small.height);
    s.drawImage(pad, 0, 0, small.width, small.height);
    return small.toDataURL("image/png");
  }

  async function post(path, data) {
    const r = await fetch(`${path}${forTable ? `?${forTable}` : ""}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token()}` },
      body: JSON.stringify({ ...data, ...(table ? { table } : {}) }),
    });
    const body = await r.json().catch(() => ({}));
    return { ok: r.ok, error: body.error || `erro ${r.status}` };
  }

  $("send").addEventListener("click", async () => {
    if (!view) return;
    if (!$("role").value) { say("Todos já assinaram", false); return; }
    const name = $("name").value.trim();
    if (!name) { say("Escreva o nome de quem assina", false); return; }
    if (!drawn) { say("Assine com o dedo no quadro antes de enviar", false); return; }
    const out = await post("/api/assinar", { role: $("role").value, name, image: png(), signs: view.chain.final_hash });
    if (out.ok) {
      say(`Assinatura de ${name} gravada`, true);
      $("name").value = "";
      fit();
    } else say(out.error, false);
    await load();
  });

  $("reopen").addEventListener("click", async () => {
    const reason = $("reason").value.trim();
    if (!reason) { say("Diga o motivo da reabertura", false); return; }
    const out = await post("/api/reabrir", { reason });
    if (out.ok) { say("Partida reaberta: as assinaturas anteriores deixaram de valer", true); $("reason").value = ""; }
    else say(out.error, false);
    await load();
  });

  window.addEventListener("resize", () => { if (!drawn) fit(); });
  load().then(fit); // the pad is sized once its card is shown
})();
